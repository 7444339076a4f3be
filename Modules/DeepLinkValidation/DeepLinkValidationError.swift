public import ServerBeeModels

/// The error domain of the DeepLinkValidation module.
public enum DeepLinkValidationDomain: ServerBeeErrorDomain {
  /// `"DeepLinkValidation"`.
  public static let name = "DeepLinkValidation"
}

/// The one public error type of DeepLinkValidation: a `ServerBeeError` (ServerBeeModels) with this module's codes.
public typealias DeepLinkValidationError = ServerBeeError<DeepLinkValidationDomain>

extension ServerBeeError.Code where Domain == DeepLinkValidationDomain {
  /// The operation is not available in this version of the SDK.
  public static let notImplemented = Self("not_implemented")
}
