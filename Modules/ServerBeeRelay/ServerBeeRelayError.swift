public import ServerBeeModels

/// The error domain of the ServerBeeRelay module.
public enum ServerBeeRelayDomain: ServerBeeErrorDomain {
  /// `"ServerBeeRelay"`.
  public static let name = "ServerBeeRelay"
}

/// The one public error type of ServerBeeRelay: a `ServerBeeError` (ServerBeeModels) with this
/// module's codes.
///
/// ```swift
/// do {
///   _ = try relay.start(port: 8080)
/// } catch let error as ServerBeeRelayError where error.code == .listenFailed {
///   print(error.message)
/// }
/// ```
public typealias ServerBeeRelayError = ServerBeeError<ServerBeeRelayDomain>

extension ServerBeeError.Code where Domain == ServerBeeRelayDomain {
  /// The relay could not bind, listen or load its TLS certificate and key.
  public static let listenFailed = Self("listen_failed")
  /// ``RelayServer/start(port:host:tls:)`` was called on a relay that is already running.
  public static let alreadyStarted = Self("already_started")
  /// ``LocalDevicePushProvider`` already knows ``LocalDevicePushProvider/Limits/maximumDevices``
  /// devices, so it issues no new token.
  public static let deviceLimitReached = Self("device_limit_reached")
  /// The APNs configuration is incomplete or wrong: a missing `APNS_*` name, an unknown
  /// environment, a bad `--apns-url`; the message names the problem, never the key.
  public static let invalidConfiguration = Self("invalid_configuration")
  /// The APNs signing key is not a P-256 PKCS#8 PEM key, or OpenSSL could not sign with it.
  public static let invalidSigningKey = Self("invalid_signing_key")
}
