import ServerBeeModels

/// Writes keys in call order through `WireJSON.encode`'s ordered encoder.
///
/// The structs in this folder stand in for shared wire models that other branches are writing;
/// each writes the contract's key order so the lead can swap them for the shared types.
struct WireWriter {
  private var container: KeyedEncodingContainer<AnyCodingKey>

  init(_ encoder: any Encoder) { container = encoder.container(keyedBy: AnyCodingKey.self) }

  mutating func callAsFunction<T: Encodable>(_ key: String, _ value: T) throws {
    try container.encode(value, forKey: AnyCodingKey(key))
  }
}

/// `{"data": payload}`.
struct DataEnvelope<Payload: Encodable>: Encodable {
  let data: Payload
}

/// RFC 3339 from stored nanoseconds.
func timestamp(_ nanos: Int64, _ style: RFC3339Timestamp.Style) -> RFC3339Timestamp {
  var seconds = nanos / 1_000_000_000
  var fraction = nanos % 1_000_000_000
  if fraction < 0 {
    seconds -= 1
    fraction += 1_000_000_000
  }
  return RFC3339Timestamp(secondsSince1970: seconds, nanoseconds: Int32(fraction), style: style)
}

func timestamp(_ nanos: Int64?, _ style: RFC3339Timestamp.Style) -> RFC3339Timestamp? {
  nanos.map { timestamp($0, style) }
}
