import Foundation
public import NotificationPreferences
import SecureStore
public import ServerBeeTransport

#if os(Linux)
  import ServerBeeSocketTransport
#else
  import ServerBeeURLSessionTransport
#endif

extension ServerBeeClient {
  /// The two transports a client talks over: HTTP (auth, REST, push setup) and the WebSocket
  /// of the live stream.
  ///
  /// ``platformDefault(_:)`` is what ``ServerBeeClient/init(store:configuration:transports:push:)``
  /// uses when you pass none: the native stack (`SocketHTTPTransport`,
  /// `SocketWebSocketTransport`) under `Configuration.tls` on Linux, URLSession elsewhere. Pass
  /// your own to add a proxy, logging, or a fake in tests:
  ///
  /// ```swift
  /// let transports = ServerBeeClient.Transports(
  ///   http: StubHTTPTransport(), webSocket: FakeWebSocketTransport())
  /// let client = ServerBeeClient(
  ///   store: InMemoryCredentialStore(), configuration: .init(deviceName: "Test"),
  ///   transports: transports)
  /// ```
  public struct Transports: Sendable {
    /// HTTP without any session token (the client adds it where a route needs it).
    public var http: any HTTPTransport
    /// The live stream's WebSocket.
    public var webSocket: any WebSocketTransport

    /// Creates the pair.
    /// - Parameters:
    ///   - http: The HTTP transport.
    ///   - webSocket: The WebSocket transport.
    public init(http: any HTTPTransport, webSocket: any WebSocketTransport) {
      self.http = http
      self.webSocket = webSocket
    }

    /// The platform's transports for `configuration`: the native stack under its TLS trust
    /// and request timeout on Linux; URLSession (the system's trust settings) elsewhere.
    /// - Parameter configuration: The client settings.
    /// - Returns: New transports.
    public static func platformDefault(_ configuration: Configuration) -> Transports {
      #if os(Linux)
        Transports(
          http: SocketHTTPTransport(
            configuration: .init(timeout: configuration.requestTimeout, tls: configuration.tls)),
          webSocket: SocketWebSocketTransport(configuration: .init(tls: configuration.tls)))
      #else
        Transports(
          http: URLSessionHTTPTransport(
            configuration: .init(timeout: configuration.requestTimeout)),
          webSocket: URLSessionWebSocketTransport())
      #endif
    }
  }

  /// Where this device's notification permission and push token come from.
  ///
  /// - ``localRelayDevice`` (the default on Linux): a local device of a `serverbee-relay` —
  ///   always allowed, its token issued by `Configuration.localRelayURL` (or the stored one).
  /// - ``remoteNotifications(_:authorization:)`` (the default on Apple platforms): the
  ///   `UNUserNotificationCenter` permission and the APNs token the app delegate hands over
  ///   (``ServerBeeClient/deliverDeviceToken(_:)``).
  /// - ``custom(authorization:deviceTokens:)``: your own seams, for example fakes in tests.
  ///
  /// ```swift
  /// let client = ServerBeeClient(
  ///   store: store, configuration: .init(deviceName: "Bot"),
  ///   push: .custom(authorization: AlwaysAuthorizedPushAuthorization(), deviceTokens: tokens))
  /// ```
  public struct PushPlatform: Sendable {
    /// The two seams, made once the store, the settings and HTTP are known.
    let make:
      @Sendable (any CredentialStore, Configuration, any HTTPTransport) -> (
        any PushAuthorization, any PushDeviceTokenProvider
      )
    /// The provider the app delegate's token goes to (``remoteNotifications(_:authorization:)``).
    let remoteTokens: RemoteNotificationsDeviceTokenProvider?

    /// A local device of a `serverbee-relay` (Linux, desktop, bots): always authorised; the
    /// token is issued by `Configuration.localRelayURL` when set, else the stored token (or
    /// one made here, which a relay learns when the device listens).
    public static let localRelayDevice = PushPlatform(
      make: { store, configuration, http in
        let tokens: LocalRelayDeviceTokenProvider =
          if let relay = configuration.localRelayURL {
            LocalRelayDeviceTokenProvider(store: store, relay: relay, transport: http)
          } else {
            LocalRelayDeviceTokenProvider(store: store)
          }
        return (AlwaysAuthorizedPushAuthorization(), tokens)
      }, remoteTokens: nil)

    /// APNs: the token the app delegate hands to ``ServerBeeClient/deliverDeviceToken(_:)``
    /// goes to `tokens`, and `authorization` gives the permission
    /// (`UserNotificationsPushAuthorization()` on Apple platforms).
    /// - Parameters:
    ///   - tokens: The provider that asks for and waits for the APNs token.
    ///   - authorization: The notification permission.
    /// - Returns: The platform.
    public static func remoteNotifications(
      _ tokens: RemoteNotificationsDeviceTokenProvider, authorization: any PushAuthorization
    ) -> PushPlatform {
      PushPlatform(make: { _, _, _ in (authorization, tokens) }, remoteTokens: tokens)
    }

    /// Your own seams.
    /// - Parameters:
    ///   - authorization: The notification permission.
    ///   - deviceTokens: The push token.
    /// - Returns: The platform.
    public static func custom(
      authorization: any PushAuthorization, deviceTokens: any PushDeviceTokenProvider
    ) -> PushPlatform {
      PushPlatform(make: { _, _, _ in (authorization, deviceTokens) }, remoteTokens: nil)
    }

    /// The platform default: APNs with the `UNUserNotificationCenter` permission where the
    /// system can register for remote notifications (iOS, iPadOS, tvOS, visionOS, macOS),
    /// ``localRelayDevice`` elsewhere (Linux).
    /// - Parameter configuration: The settings (`apnsEnvironment`).
    /// - Returns: The platform.
    public static func platformDefault(_ configuration: Configuration) -> PushPlatform {
      #if canImport(UserNotifications) && (os(iOS) || os(tvOS) || os(visionOS) || os(macOS))
        remoteNotifications(
          RemoteNotificationsDeviceTokenProvider(
            environment: configuration.apnsEnvironment,
            register: SystemRemoteNotifications.register),
          authorization: UserNotificationsPushAuthorization())
      #else
        localRelayDevice
      #endif
    }
  }
}
