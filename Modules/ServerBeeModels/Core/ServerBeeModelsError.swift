/// The error domain of the ServerBeeModels module.
public enum ServerBeeModelsDomain: ServerBeeErrorDomain {
  /// `"ServerBeeModels"`.
  public static let name = "ServerBeeModels"
}

/// The error thrown by ServerBeeModels: decoding, parsing and validation failures.
///
/// Decoding failures name the field by its JSON path, for example `data.servers[3].id`.
public typealias ServerBeeModelsError = ServerBeeError<ServerBeeModelsDomain>

extension ServerBeeError.Code where Domain == ServerBeeModelsDomain {
  /// The bytes are not JSON, or not UTF-8.
  public static let malformedJSON = Self("malformed_json")
  /// A field the contract requires is absent.
  public static let missingField = Self("missing_field")
  /// A field holds a value of the wrong JSON type or an invalid value.
  public static let invalidField = Self("invalid_field")
  /// A timestamp is not RFC 3339.
  public static let invalidTimestamp = Self("invalid_timestamp")
  /// A QR payload is not a ServerBee pairing payload.
  public static let invalidPairingPayload = Self("invalid_pairing_payload")
  /// A server URL cannot be normalised (wrong scheme, credentials, query, fragment…).
  public static let invalidServerURL = Self("invalid_server_url")
  /// An alert key is neither a valid `v1.` key nor a `rule_id:server_id` key.
  public static let invalidAlertKey = Self("invalid_alert_key")
  /// Input is larger than the parser accepts.
  public static let tooLarge = Self("too_large")
  /// A value could not be encoded.
  public static let encodingFailed = Self("encoding_failed")
}
