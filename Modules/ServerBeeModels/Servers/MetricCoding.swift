// The one place for the decoding rules that every metric-carrying model shares: `ServerStatus`,
// `LiveMetrics`, `ServerRecord` and RealtimeStream's fast frame reader
// (Documentation/Architecture.md §7.3, "Wire mirrors"). The rules, after the upstream iOS client
// (Protocol/LiveStream.md §7):
//
// - Keys and aliases: `MetricField.keys` lists a field's wire keys; the **first present** one in
//   that list supplies the value, whatever their order in the object (`cpu_usage` beats `cpu`).
//   A key that appears twice in one object keeps its first value, as Foundation's JSONDecoder
//   does.
// - Absent = nil: every field but a live-stream entry's `id` and `name` may be absent; absent
//   decodes to `nil`, never to `0` or empty. A metric float that is present but `null`
//   (non-finite on the server, Protocol/README.md §6) decodes to `.nan`; any other `null` is `nil`.
// - Time: `last_active` / `last_active_at` accept an integer (Unix seconds), a string of digits
//   or an RFC 3339 string; any other value degrades to `nil` instead of failing the frame.
// - Zero capacity: a `mem_total` or `disk_total` of 0 means "unknown"; merging it never replaces
//   a known total (`MetricField.mergedCapacity(_:_:)`), and usage percentages are `nil` for it.

/// A string coding key, so one container can look up a field under each of its aliases.
package struct WireKey: CodingKey {
  package var stringValue: String
  package var intValue: Int? { nil }
  package init(_ key: StaticString) { stringValue = key.description }
  package init(stringValue: String) { self.stringValue = stringValue }
  package init?(intValue: Int) { nil }

  /// The canonical key of a field.
  package init(_ field: MetricField) { self.init(field.canonicalKey) }
}

extension KeyedDecodingContainer where Key == WireKey {
  /// The first of `field`'s keys that the object holds.
  package func presentKey(_ field: MetricField) -> WireKey? {
    for key in field.keys {
      let key = WireKey(key)
      if contains(key) { return key }
    }
    return nil
  }

  /// A field: absent or `null` is `nil`; a value of the wrong type throws naming the key.
  package func decodeField<T: Decodable>(_ type: T.Type, _ field: MetricField) throws -> T? {
    guard let key = presentKey(field) else { return nil }
    return try decodeIfPresent(type, forKey: key)
  }

  /// A metric float: absent is `nil`, `null` is `.nan`.
  package func decodeMetricField(_ field: MetricField) throws -> Double? {
    guard let key = presentKey(field) else { return nil }
    if try decodeNil(forKey: key) { return .nan }
    return try decode(Double.self, forKey: key)
  }

  /// `last_active`: an integer, a string of digits or an RFC 3339 string; anything else
  /// (including a fraction or a number out of range) is `nil` and never fails the object.
  package func decodeTimeField(_ field: MetricField) -> Int64? {
    guard let key = presentKey(field) else { return nil }
    if let seconds = try? decode(Int64.self, forKey: key) { return seconds }
    if let text = try? decode(String.self, forKey: key) {
      return MetricField.unixSeconds(fromTimeText: text)
    }
    return nil
  }

  /// Whether an object holds the live-stream identity every entry needs: `id` and `name` as
  /// strings.
  package func hasIdentity() -> Bool {
    (try? decode(String.self, forKey: WireKey(.id))) != nil
      && (try? decode(String.self, forKey: WireKey(.name))) != nil
  }
}

extension KeyedDecodingContainer {
  /// A required metric float. The server writes a non-finite `f64` as `null` (Protocol/README.md
  /// §6), so `null` becomes `.nan` (which ``WireJSON`` writes back as `null`); an absent key is
  /// still a missing field.
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

/// An element of a live-stream server list that is kept only when it has an `id` and a `name`
/// (Protocol/LiveStream.md §7): an entry without them is dropped, not a reason to fail the whole
/// frame.
struct DroppableEntry<Value: Decodable>: Decodable {
  var value: Value?

  init(from decoder: any Decoder) throws {
    guard (try? decoder.container(keyedBy: WireKey.self))?.hasIdentity() == true else {
      value = nil
      return
    }
    value = try Value(from: decoder)
  }
}

extension KeyedDecodingContainer {
  /// A server list whose entries without `id` or `name` are dropped.
  func decodeDroppingAnonymous<Value: Decodable>(_ type: [Value].Type, forKey key: Key) throws
    -> [Value]
  {
    try decode([DroppableEntry<Value>].self, forKey: key).compactMap(\.value)
  }
}
