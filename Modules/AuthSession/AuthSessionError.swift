public import ServerBeeModels

/// The error domain of the AuthSession module.
public enum AuthSessionDomain: ServerBeeErrorDomain {
  /// `"AuthSession"`.
  public static let name = "AuthSession"
}

/// The one public error type of AuthSession: a `ServerBeeError` (ServerBeeModels) with this module's codes.
public typealias AuthSessionError = ServerBeeError<AuthSessionDomain>

extension ServerBeeError.Code where Domain == AuthSessionDomain {
  /// The operation is not available in this version of the SDK.
  public static let notImplemented = Self("not_implemented")
}
