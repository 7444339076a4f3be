public import ServerBeeModels

/// The error domain of the PushEnvelopeCrypto module.
public enum PushEnvelopeCryptoDomain: ServerBeeErrorDomain {
  /// `"PushEnvelopeCrypto"`.
  public static let name = "PushEnvelopeCrypto"
}

/// The one public error type of PushEnvelopeCrypto: a `ServerBeeError` (ServerBeeModels) with this module's codes.
public typealias PushEnvelopeCryptoError = ServerBeeError<PushEnvelopeCryptoDomain>

extension ServerBeeError.Code where Domain == PushEnvelopeCryptoDomain {
  /// An envelope was rejected.
  public static let rejected = Self("rejected")
}
