public import ServerBeeModels

/// The error domain of the ServerBeeSimulator module.
public enum ServerBeeSimulatorDomain: ServerBeeErrorDomain {
  /// `"ServerBeeSimulator"`.
  public static let name = "ServerBeeSimulator"
}

/// The one public error type of ServerBeeSimulator: a `ServerBeeError` (ServerBeeModels) with this
/// module's codes.
public typealias ServerBeeSimulatorError = ServerBeeError<ServerBeeSimulatorDomain>

extension ServerBeeError.Code where Domain == ServerBeeSimulatorDomain {
  /// The SQLite database could not be opened, migrated, read or written.
  public static let storageFailed = Self("storage_failed")
  /// The listener could not bind, listen or load its TLS certificate.
  public static let listenFailed = Self("listen_failed")
  /// A configuration value (seed user, port, path) is invalid.
  public static let invalidConfiguration = Self("invalid_configuration")
  /// Another simulator (in this process or another) holds the data directory's lock; nothing
  /// in the directory was read or written.
  public static let dataDirectoryInUse = Self("data_directory_in_use")
}
