public import ServerBeeModels

/// The error domain of the SecureStore module.
public enum SecureStoreDomain: ServerBeeErrorDomain {
  /// `"SecureStore"`.
  public static let name = "SecureStore"
}

/// The one public error type of SecureStore: a `ServerBeeError` (ServerBeeModels) with this module's codes.
public typealias SecureStoreError = ServerBeeError<SecureStoreDomain>

extension ServerBeeError.Code where Domain == SecureStoreDomain {
  /// The store could not be read or written.
  public static let storageFailed = Self("storage_failed")
}
