import ServerBeeModels

// `full_sync` written from `ServerStatus` values, field by field from the `MetricField` table
//: the keys, their order and the nulls are ``WireField/status``, each value read by
// its kind, so a new field needs no edit here.

extension WireWriter {
  /// `ServerStatus` (Protocol/LiveStream.md §5), as its `encode(to:)` writes it: unknown metrics
  /// left out, the nullable facts as `null`.
  /// - Parameter server: The entry.
  /// - Throws: What ``encoded(_:)-(Encodable?)`` throws for a nested value.
  mutating func write(_ server: ServerStatus) throws {
    try ServerStatus.layout.read(server) { fields in
      for entry in WireField.status {
        let start = key(entry)
        if try !value(entry.field, of: fields) { absent(entry, keyAt: start) }
      }
    }
    raw("}")
  }

  /// Writes `field`'s value; `false`, with nothing written, when it is `nil`.
  private mutating func value(_ field: MetricField, of fields: MetricFieldReader) throws -> Bool {
    switch field.kind {
    case .identity: string(fields.identity(field))
    case .bool:
      guard let value = fields.bool(field) else { return false }
      bool(value)
    case .int:
      guard let value = fields.int(field) else { return false }
      int(value)
    case .int64, .time:
      guard let value = fields.int64(field) else { return false }
      int(value)
    case .metric:
      guard let value = fields.metric(field) else { return false }
      float(value)
    case .string:
      guard let value = fields.string(field) else { return false }
      string(value)
    case .strings:
      guard let value = fields.strings(field) else { return false }
      strings(value)
    case .authority:
      guard let value = fields.authority(field) else { return false }
      try agentAuthority(value)
    case .offer:
      guard let value = fields.offer(field) else { return false }
      try encoded(value)
    }
    return true
  }

  /// `{"type":"full_sync","servers":[ServerStatus…],"upgrades":[…]}` (Protocol/LiveStream.md §4),
  /// as the text the WebSocket sends: made once from the bytes, not per session.
  /// - Parameter sync: The frame.
  /// - Returns: Its text.
  /// - Throws: What ``write(_:)-(ServerStatus)`` throws.
  static func fullSync(_ sync: FullSync) throws -> String {
    var writer = WireWriter(capacity: 64 + sync.servers.count * 1000)
    writer.raw("{\"type\":\"full_sync\",\"servers\":[")
    for (index, server) in sync.servers.enumerated() {
      if index > 0 { writer.raw(",") }
      try writer.write(server)
    }
    writer.raw("],\"upgrades\":")
    if sync.upgrades.isEmpty { writer.raw("[]") } else { try writer.encoded(sync.upgrades) }
    writer.raw("}")
    return writer.text
  }
}
