public import ServerBeeModels

/// The error domain of the RealtimeStream module.
public enum RealtimeStreamDomain: ServerBeeErrorDomain {
  /// `"RealtimeStream"`.
  public static let name = "RealtimeStream"
}

/// The one public error type of RealtimeStream: a `ServerBeeError` (ServerBeeModels) with this module's codes.
public typealias RealtimeStreamError = ServerBeeError<RealtimeStreamDomain>

extension ServerBeeError.Code where Domain == RealtimeStreamDomain {
  /// The operation is not available in this version of the SDK.
  public static let notImplemented = Self("not_implemented")
}
