// Shared decoding and encoding rules for metric-carrying models (ServerStatus, LiveMetrics,
// ServerRecord). Kept in one place so every model treats `null` floats and absent keys alike.

extension KeyedDecodingContainer {
  /// A required metric float. The server writes a non-finite `f64` as `null` (wire contract v1 §1.4), so
  /// `null` becomes `.nan` (which ``WireJSON`` writes back as `null`); an absent key is still a
  /// missing field.
  func decodeMetric(forKey key: Key) throws -> Double {
    if try decodeNil(forKey: key) { return .nan }
    return try decode(Double.self, forKey: key)
  }

  /// An optional metric float of a partial frame: absent stays `nil`, `null` becomes `.nan`.
  func decodeMetricIfPresent(forKey key: Key) throws -> Double? {
    guard contains(key) else { return nil }
    return try decodeMetric(forKey: key)
  }
}

extension KeyedEncodingContainer {
  /// Writes the value only when it is not `nil`: for keys that a partial frame leaves out
  /// (``WireJSON`` writes `nil` optionals as `null` otherwise).
  mutating func encodeUnlessNil(_ value: (some Encodable)?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) }
  }
}
