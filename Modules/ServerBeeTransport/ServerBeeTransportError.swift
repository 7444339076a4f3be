public import ServerBeeModels

/// The error domain of the ServerBeeTransport module.
public enum ServerBeeTransportDomain: ServerBeeErrorDomain {
  /// `"ServerBeeTransport"`.
  public static let name = "ServerBeeTransport"
}

/// The one public error type of ServerBeeTransport: a `ServerBeeError` (ServerBeeModels) with this module's codes.
public typealias ServerBeeTransportError = ServerBeeError<ServerBeeTransportDomain>

extension ServerBeeError.Code where Domain == ServerBeeTransportDomain {
  /// The connection could not be established or was lost.
  public static let connectionFailed = Self("connection_failed")
}
