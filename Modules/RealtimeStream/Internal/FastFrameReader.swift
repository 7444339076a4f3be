import ServerBeeModels

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The fast path of ``LiveFrameDecoder``: `full_sync` and `update` frames whose first key is
/// `type`. Returns `nil` for anything else — including any malformed or incomplete frame — so
/// the Codable path can produce the precise, field-naming error.
///
/// **Agreement with the Codable path.** Whenever this returns a message, `LiveStreamMessage`'s
/// Codable decoding returns the same one; when in doubt it returns `nil`. It therefore is
/// *stricter* than Foundation's JSONDecoder, which validates lazily (it accepts a trailing
/// comma, or invalid UTF-8 and leading zeros in a value nobody reads): anything this scanner
/// refuses simply goes the slow way. Field rules (aliases, absent = nil, first key wins, entries
/// without `id`/`name` dropped) come from `MetricField`, the table the models use.
enum FastFrameReader {
  static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> LiveStreamMessage? {
    var scanner = JSONScanner(bytes)
    do {
      try scanner.expect(UInt8(ascii: "{"))
      guard try scanner.readKeyEquals("type") else { return nil }
      let type = try scanner.readString()
      let message: LiveStreamMessage
      switch type {
      case "full_sync": message = try readFullSync(&scanner)
      case "update": message = try readUpdate(&scanner)
      default: return nil
      }
      try scanner.expectEnd()
      return message
    } catch {
      return nil
    }
  }

  /// The rest of `{"type":"full_sync", "servers":[…], "upgrades":[…]}` after the type.
  private static func readFullSync(_ s: inout JSONScanner) throws(JSONScanner.Failure)
    -> LiveStreamMessage
  {
    var servers: [ServerStatus]?
    var upgrades: [UpgradeJob]?
    try s.readRemainingMembers { (s, key) throws(JSONScanner.Failure) in
      if key.equals("servers"), servers == nil {
        var list: [ServerStatus] = []
        list.reserveCapacity(1024)
        try s.readArray { (s) throws(JSONScanner.Failure) in
          if let status = try readServerStatus(&s) { list.append(status) }
        }
        servers = list
      } else if key.equals("upgrades"), upgrades == nil {
        // Rare and small: decode with the models so every rule matches exactly.
        let start = s.index
        try s.skipValue()
        let slice = Data(UnsafeBufferPointer(rebasing: s.bytes[start..<s.index]))
        guard let decoded = try? WireJSON.decode([UpgradeJob].self, from: slice) else {
          throw s.fail("upgrades")
        }
        upgrades = decoded
      } else {
        try s.skipValue()
      }
    }
    guard let servers else { throw s.fail("servers missing") }
    return .fullSync(FullSync(servers: servers, upgrades: upgrades ?? []))
  }

  private static func readUpdate(_ s: inout JSONScanner) throws(JSONScanner.Failure)
    -> LiveStreamMessage
  {
    var servers: [LiveMetrics]?
    try s.readRemainingMembers { (s, key) throws(JSONScanner.Failure) in
      if key.equals("servers"), servers == nil {
        var list: [LiveMetrics] = []
        try s.readArray { (s) throws(JSONScanner.Failure) in
          if let metrics = try readLiveMetrics(&s) { list.append(metrics) }
        }
        servers = list
      } else {
        try s.skipValue()
      }
    }
    guard let servers else { throw s.fail("servers missing") }
    return .update(MetricsUpdate(servers: servers))
  }

  // MARK: Server entries

  /// The order a current server writes `ServerStatus` keys in (wire contract v1 §4.5): the
  /// table's order. Keys are matched against the expected next one first, so a server-written
  /// object costs one comparison per key; anything else (aliases, other orders) is looked up in
  /// `MetricField.wireKeys`, the table the Codable models use.
  private static let statusOrder: [MetricField] = MetricField.allCases

  /// The order of the `LiveMetrics` keys a current server writes (the table's `updateOrder`).
  private static let metricsOrder: [MetricField] = MetricField.updateOrder

  /// One expected key of an order: the field, its canonical key and that key's rank.
  struct Expected {
    var field: MetricField
    var key: StaticString
    var rank: UInt8
    var kind: MetricField.Kind
  }

  /// An order with each field's canonical key and kind resolved once, not per key read.
  static func expectedKeys(_ order: [MetricField]) -> [Expected] {
    order.map {
      Expected(field: $0, key: $0.canonicalKey, rank: UInt8($0.keys.count - 1), kind: $0.kind)
    }
  }

  /// Each order holds only fields its model holds (``MetricTableTests`` checks both).
  private static let statusExpected = expectedKeys(statusOrder)
  private static let metricsExpected = expectedKeys(metricsOrder)
  private static let emptyMetrics = LiveMetrics(id: "", name: "")
  private static let wireKeys: [WireKeyEntry] = MetricField.wireKeys.map {
    ($0.key, $0.field, $0.rank, $0.field.kind)
  }

  /// Resolves a key to its field and precedence rank (0 = the key that wins).
  @inline(__always)
  private static func resolve(
    _ key: UnsafeBufferPointer<UInt8>, order: [Expected], wireKeys: [WireKeyEntry],
    expected: inout Int
  ) -> (field: MetricField, rank: UInt8, kind: MetricField.Kind, inOrder: Bool)? {
    if expected < order.count {
      let next = order[expected]
      if key.equals(next.key) {
        expected += 1
        return (next.field, next.rank, next.kind, true)
      }
    }
    for entry in wireKeys where key.equals(entry.key) {
      if let at = order.firstIndex(where: { $0.field == entry.field }) { expected = at + 1 }
      return (entry.field, entry.rank, entry.kind, false)
    }
    return nil
  }

  typealias WireKeyEntry = (
    key: StaticString, field: MetricField, rank: UInt8, kind: MetricField.Kind
  )

  /// Which keys of an object have supplied a field so far; enforces "the first present alias
  /// in `MetricField.keys` wins, and a repeated key keeps its first value" (JSONDecoder's rule).
  private struct Precedence {
    /// Fields set by their rank-0 key: final.
    var final: UInt64 = 0
    /// Fields set by any key.
    var set: UInt64 = 0

    /// Whether a value under a key of `rank` must be read (else it is skipped).
    @inline(__always) mutating func take(_ field: MetricField, rank: UInt8) -> Bool {
      let bit: UInt64 = 1 << UInt64(field.rawValue)
      if final & bit != 0 { return false }
      if rank == 0 {
        final |= bit
        set |= bit
        return true
      }
      // Tables hold at most two keys per field (checked by a test), so rank 1 loses only to a
      // previous value under the same key.
      if set & bit != 0 { return false }
      set |= bit
      return true
    }

    func has(_ field: MetricField) -> Bool { set & (1 << UInt64(field.rawValue)) != 0 }
  }

  /// `last_active`: an integer, a string of digits or an RFC 3339 string; `null`, `true`,
  /// `false`, objects and arrays are `nil`. A number that is not a plain Int64 throws, so the
  /// Codable path (which owns the rule) decides.
  private static func readTime(_ s: inout JSONScanner) throws(JSONScanner.Failure) -> Int64? {
    switch s.peek() {
    case UInt8(ascii: "\""): return MetricField.unixSeconds(fromTimeText: try s.readString())
    case UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "{"),
      UInt8(ascii: "["):
      try s.skipValue()
      return nil
    default: return try s.readInt64()
    }
  }

  /// Reads a `full_sync` server entry; `nil` when it has no `id` or no `name` (dropped).
  static func readServerStatus(_ s: inout JSONScanner) throws(JSONScanner.Failure)
    -> ServerStatus?
  {
    var status = ServerStatus.empty
    let complete = try ServerStatus.layout.write(into: &status) {
      (w) throws(JSONScanner.Failure) -> Bool in
      try readEntry(&s, into: w, statusExpected)
    }
    return complete ? status : nil
  }

  /// Reads an `update` entry with the rules of `LiveMetrics`; `nil` when it has no `id` or no
  /// `name` (dropped). Keys of fields an update does not carry are skipped.
  static func readLiveMetrics(_ s: inout JSONScanner) throws(JSONScanner.Failure) -> LiveMetrics? {
    var metrics = emptyMetrics
    let complete = try LiveMetrics.layout.write(into: &metrics) {
      (w) throws(JSONScanner.Failure) -> Bool in
      try readEntry(&s, into: w, metricsExpected)
    }
    return complete ? metrics : nil
  }

  /// Reads one server object from the ``MetricField`` table: each key is resolved to its
  /// field, the value read by the field's kind and stored through the model's writer. One
  /// routine for both entry kinds, so a new field needs no change here.
  /// - Returns: Whether the object had both `id` and `name`.
  private static func readEntry(
    _ s: inout JSONScanner, into w: MetricFieldWriter, _ order: [Expected]
  ) throws(JSONScanner.Failure) -> Bool {
    var precedence = Precedence()
    var expected = 0
    let wireKeys = wireKeys
    try s.readObject { (s, key) throws(JSONScanner.Failure) in
      // Every field of an order is one the model holds; a key found another way may not be.
      guard
        let (f, rank, kind, inOrder) = resolve(
          key, order: order, wireKeys: wireKeys, expected: &expected),
        inOrder || w.holds(f), precedence.take(f, rank: rank)
      else {
        try s.skipValue()
        return
      }
      // The value's type follows the kind, as the layout checked for each property.
      switch kind {
      case .identity: w.putIdentity(try s.readString(), f)
      case .bool: w.putBool(try s.readOptionalBool(), f)
      case .int: w.putInt(try s.readOptionalInt(), f)
      case .int64: w.putInt64(try s.readOptionalInt64(), f)
      case .metric: w.putMetric(try s.readLenientDouble(), f)
      case .time: w.putInt64(try readTime(&s), f)
      case .string: w.putString(try s.readOptionalString(), f)
      case .strings: w.putStrings(try readStrings(&s), f)
      case .authority: w.putAuthority(try s.consumeNull() ? nil : readAgentAuthority(&s), f)
      case .offer: w.putOffer(try readOptionalOffer(&s), f)
      }
    }
    return precedence.has(.id) && precedence.has(.name)
  }

  private static func readStrings(_ s: inout JSONScanner) throws(JSONScanner.Failure)
    -> [String]?
  {
    if try s.consumeNull() { return nil }
    var list: [String] = []
    try s.readArray { (s) throws(JSONScanner.Failure) in list.append(try s.readString()) }
    return list
  }

  private static func readAgentAuthority(_ s: inout JSONScanner) throws(JSONScanner.Failure)
    -> AgentAuthority
  {
    var status: String?
    var offer: OutstandingOffer?
    var sawOffer = false
    try s.readObject { (s, key) throws(JSONScanner.Failure) in
      if key.equals("status"), status == nil {
        status = try s.readString()
      } else if key.equals("outstanding_offer"), !sawOffer {
        sawOffer = true
        offer = try readOptionalOffer(&s)
      } else {
        try s.skipValue()
      }
    }
    guard let status else { throw s.fail("agent_authority has no status") }
    return AgentAuthority(status: AgentAuthorityStatus(rawValue: status), outstandingOffer: offer)
  }

  private static func readOptionalOffer(_ s: inout JSONScanner) throws(JSONScanner.Failure)
    -> OutstandingOffer?
  {
    if try s.consumeNull() { return nil }
    var id: String?
    var prefix: String?
    var expires: String?
    var created: String?
    // A repeated key keeps its first value, as JSONDecoder does.
    try s.readObject { (s, key) throws(JSONScanner.Failure) in
      if key.equals("id"), id == nil {
        id = try s.readString()
      } else if key.equals("code_prefix"), prefix == nil {
        prefix = try s.readString()
      } else if key.equals("expires_at"), expires == nil {
        expires = try s.readString()
      } else if key.equals("created_at"), created == nil {
        created = try s.readString()
      } else {
        try s.skipValue()
      }
    }
    guard let id, let prefix, let expires, let created,
      let expiresAt = try? RFC3339Timestamp(parsing: expires),
      let createdAt = try? RFC3339Timestamp(parsing: created)
    else { throw s.fail("outstanding offer is incomplete") }
    return OutstandingOffer(id: id, codePrefix: prefix, expiresAt: expiresAt, createdAt: createdAt)
  }
}

extension MetricFieldWriter {
  // The writer's typed stores, compiled here so they inline into the reader: the setters of
  // ServerBeeModels are calls across modules (package declarations are not inlined across
  // modules by this toolchain's release builds), about 0.8 M instructions per 1,000-server
  // `full_sync`. Each takes exactly the optional type its kind names, so a non-optional value
  // is wrapped before it is stored (storing a bare `Double` into a `Double?` would leave the
  // tag byte of the empty value behind).

  @inline(__always)
  private func store<Value>(_ value: Value, _ field: MetricField) {
    let offset = offsets[field.rawValue]
    precondition(offset >= 0, "the model does not hold \(field)")
    (base + offset).assumingMemoryBound(to: Value.self).pointee = value
  }

  @inline(__always) fileprivate func putIdentity(_ v: String, _ f: MetricField) { store(v, f) }
  @inline(__always) fileprivate func putBool(_ v: Bool?, _ f: MetricField) { store(v, f) }
  @inline(__always) fileprivate func putInt(_ v: Int?, _ f: MetricField) { store(v, f) }
  @inline(__always) fileprivate func putInt64(_ v: Int64?, _ f: MetricField) { store(v, f) }
  @inline(__always) fileprivate func putMetric(_ v: Double?, _ f: MetricField) { store(v, f) }
  @inline(__always) fileprivate func putString(_ v: String?, _ f: MetricField) { store(v, f) }
  @inline(__always) fileprivate func putStrings(_ v: [String]?, _ f: MetricField) { store(v, f) }
  @inline(__always) fileprivate func putAuthority(_ v: AgentAuthority?, _ f: MetricField) {
    store(v, f)
  }
  @inline(__always) fileprivate func putOffer(_ v: OutstandingOffer?, _ f: MetricField) {
    store(v, f)
  }
}
