public import ServerBeeModels

/// The error domain of the ServerBeeSimulator module.
public enum ServerBeeSimulatorDomain: ServerBeeErrorDomain {
  /// `"ServerBeeSimulator"`.
  public static let name = "ServerBeeSimulator"
}

/// The one public error type of ServerBeeSimulator: a `ServerBeeError` (ServerBeeModels) with this module's codes.
public typealias ServerBeeSimulatorError = ServerBeeError<ServerBeeSimulatorDomain>

extension ServerBeeError.Code where Domain == ServerBeeSimulatorDomain {
  /// The operation is not available in this version of the SDK.
  public static let notImplemented = Self("not_implemented")
}
