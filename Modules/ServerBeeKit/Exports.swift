// One import for integrators: `import ServerBeeKit` brings every SDK module.
@_exported public import AuthSession
@_exported public import DeepLinkValidation
@_exported public import NotificationPreferences
@_exported public import PushEnvelopeCrypto
@_exported public import RealtimeStream
@_exported public import SecureStore
@_exported public import ServerBeeAPI
@_exported public import ServerBeeModels
@_exported public import ServerBeeRoutes
@_exported public import ServerBeeTransport

// The platform's default transports, for integrators who wire their own parts.
#if os(Linux)
  @_exported public import ServerBeeSocketTransport
#else
  @_exported public import ServerBeeURLSessionTransport
#endif
