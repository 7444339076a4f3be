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
    let table = statusTable
    let empty = ServerStatus.empty
    // Capacity for the hundred or so distinct names, regions, group ids and tags of a fleet.
    var cache = StringCache(capacity: 256)
    try s.readRemainingMembers { (s, key) throws(JSONScanner.Failure) in
      if key.equals("servers"), servers == nil {
        var list: [ServerStatus] = []
        list.reserveCapacity(1024)
        try s.readArray { (s) throws(JSONScanner.Failure) in
          try appendEntry(&s, to: &list, empty, table, &cache)
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
    let table = metricsTable
    // An update's strings are its servers' ids, names and country codes: nothing to share.
    var cache = StringCache(capacity: 0)
    try s.readRemainingMembers { (s, key) throws(JSONScanner.Failure) in
      if key.equals("servers"), servers == nil {
        var list: [LiveMetrics] = []
        try s.readArray { (s) throws(JSONScanner.Failure) in
          if let metrics = try readLiveMetrics(&s, table, &cache) { list.append(metrics) }
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

  /// One wire key of the ``MetricField`` table resolved for one model, once: the field, where
  /// its value goes and how it competes with the field's other keys.
  struct EntryKey {
    var key: StaticString
    /// `key":`, to recognise the key where it is expected.
    var pattern: KeyPattern
    var field: MetricField
    var kind: MetricField.Kind
    /// The byte offset of the field's property in the model; -1 when the model has none.
    var offset: Int
    /// The field's bit in ``Precedence``.
    var bit: UInt64
    /// The key's precedence among the field's keys (0 = the key that wins).
    var rank: UInt8
    /// For a key met out of order: where the expected order goes on (the field's position
    /// in it + 1), or -1 when the order does not hold the field.
    var resume: Int
  }

  /// A model's keys, from the ``MetricField`` table and the model's ``MetricLayout``.
  struct EntryTable {
    /// The order a current server writes the model's keys in, canonical keys: matched against
    /// the expected next one first, so a server-written object costs one comparison per key.
    var order: [EntryKey]
    /// Every wire key (aliases too), for anything else.
    var all: [EntryKey]
    /// The bits of `id` and `name`, which an entry needs.
    var identity: UInt64
    /// The keys of an `agent_authority` object.
    var status = KeyPattern("status")
    var outstandingOffer = KeyPattern("outstanding_offer")

    init<Model>(order fields: [MetricField], layout: MetricLayout<Model>) {
      func entry(_ key: StaticString, _ field: MetricField, rank: UInt8) -> EntryKey {
        EntryKey(
          key: key, pattern: KeyPattern(key), field: field, kind: field.kind,
          offset: layout.offset(of: field) ?? -1, bit: 1 << UInt64(field.rawValue), rank: rank,
          resume: fields.firstIndex(of: field).map { $0 + 1 } ?? -1)
      }
      order = fields.map { entry($0.canonicalKey, $0, rank: UInt8($0.keys.count - 1)) }
      all = MetricField.wireKeys.map { entry($0.key, $0.field, rank: $0.rank) }
      identity = 1 << UInt64(MetricField.id.rawValue) | 1 << UInt64(MetricField.name.rawValue)
    }

    /// The entry of a key read as bytes; `nil` for a key of no field.
    func lookUp(_ key: UnsafeBufferPointer<UInt8>) -> EntryKey? {
      for entry in all where key.equals(entry.key) { return entry }
      return nil
    }
  }

  /// `ServerStatus`, in the table's order (Protocol/LiveStream.md §5); every field.
  static let statusTable = EntryTable(order: MetricField.allCases, layout: ServerStatus.layout)
  /// `LiveMetrics`, in the order of the keys of an `update` entry (the table's `updateOrder`).
  static let metricsTable = EntryTable(order: MetricField.updateOrder, layout: LiveMetrics.layout)
  private static let emptyMetrics = LiveMetrics(id: "", name: "")

  /// Which keys of an object have supplied a field so far; enforces "the first present alias
  /// in `MetricField.keys` wins, and a repeated key keeps its first value" (JSONDecoder's rule).
  private struct Precedence {
    /// Fields set by their rank-0 key: final.
    var final: UInt64 = 0
    /// Fields set by any key.
    var set: UInt64 = 0

    /// Whether a value under a key of `rank` for the field of `bit` must be read (else it is
    /// skipped).
    @inline(__always) mutating func take(_ bit: UInt64, rank: UInt8) -> Bool {
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

    func has(_ bits: UInt64) -> Bool { set & bits == bits }
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

  /// Reads a `full_sync` server entry into a new last element of `list`, a copy of `empty`, and
  /// removes it again when it has no `id` or no `name` (dropped). Filling the element in place
  /// saves copying the status (over 500 bytes) twice on its way there.
  private static func appendEntry(
    _ s: inout JSONScanner, to list: inout [ServerStatus], _ empty: ServerStatus,
    _ table: EntryTable, _ cache: inout StringCache
  ) throws(JSONScanner.Failure) {
    list.append(empty)
    let complete = try list.withUnsafeMutableBufferPointer {
      (buffer) throws(JSONScanner.Failure) -> Bool in
      // The element just appended: there is one, so the buffer has a base address.
      let last = buffer.baseAddress.unsafelyUnwrapped + (buffer.count - 1)
      return try readEntry(&s, into: UnsafeMutableRawPointer(last), table, &cache)
    }
    if !complete { list.removeLast() }
  }

  /// Reads an `update` entry with the rules of `LiveMetrics`; `nil` when it has no `id` or no
  /// `name` (dropped). Keys of fields an update does not carry are skipped. (An update holds
  /// one or a few entries, each smaller than a status: no need to fill them in place.)
  static func readLiveMetrics(
    _ s: inout JSONScanner, _ table: EntryTable, _ cache: inout StringCache
  ) throws(JSONScanner.Failure) -> LiveMetrics? {
    var metrics = emptyMetrics
    let complete = try withUnsafeMutableBytes(of: &metrics) {
      (raw) throws(JSONScanner.Failure) -> Bool in
      try readEntry(&s, into: raw.baseAddress.unsafelyUnwrapped, table, &cache)
    }
    return complete ? metrics : nil
  }

  /// Reads one server object from the ``MetricField`` table: each key is resolved to its
  /// field, the value read by the field's kind and stored at the field's offset in the model
  /// (`base`, valid for the model `table` was made from). One routine for both entry kinds, so
  /// a new field needs no change here.
  /// - Returns: Whether the object had both `id` and `name`.
  private static func readEntry(
    _ s: inout JSONScanner, into base: UnsafeMutableRawPointer, _ table: EntryTable,
    _ cache: inout StringCache
  ) throws(JSONScanner.Failure) -> Bool {
    var precedence = Precedence()
    guard try s.enterObject() else { return false }
    defer { s.leaveMembers() }
    var expected = 0
    let order = table.order
    repeat {
      s.skipWhitespace()
      let key: EntryKey
      if expected < order.count, s.consumeKey(order[expected].pattern) {
        key = order[expected]
        expected += 1
      } else {
        let found = try s.readKey { (_, bytes) throws(JSONScanner.Failure) in
          table.lookUp(bytes)
        }
        guard let found else {
          try s.skipValue()
          continue
        }
        if found.resume >= 0 { expected = found.resume }
        key = found
      }
      // A key of a field the model does not hold, or one that loses to an earlier key.
      guard key.offset >= 0, precedence.take(key.bit, rank: key.rank) else {
        try s.skipValue()
        continue
      }
      try readValue(&s, key.kind, into: base + key.offset, table, &cache)
    } while try s.endOfMember()
    return precedence.has(table.identity)
  }

  /// Reads a value of `kind` and stores it at `slot`, a property of exactly the type the kind
  /// names (``MetricLayout`` checked each property's type against its field's kind).
  @inline(__always)
  private static func readValue(
    _ s: inout JSONScanner, _ kind: MetricField.Kind, into slot: UnsafeMutableRawPointer,
    _ table: EntryTable, _ cache: inout StringCache
  ) throws(JSONScanner.Failure) {
    // Each store names its optional type: storing a bare `Double` into a `Double?` would leave
    // the tag byte of the empty value behind.
    switch kind {
    case .identity: store(try s.readString() as String, at: slot)
    case .bool: store(try s.readOptionalBool() as Bool?, at: slot)
    case .int: store(try s.readOptionalInt() as Int?, at: slot)
    case .int64: store(try s.readOptionalInt64() as Int64?, at: slot)
    case .metric: store(Optional(try s.readLenientDouble()) as Double?, at: slot)
    case .time: store(try readTime(&s) as Int64?, at: slot)
    case .string: store(try s.readOptionalString(cache: &cache) as String?, at: slot)
    case .strings: store(try readStrings(&s, &cache) as [String]?, at: slot)
    case .authority:
      let authority = try s.consumeNull() ? nil : readAgentAuthority(&s, table, &cache)
      store(authority as AgentAuthority?, at: slot)
    case .offer: store(try readOptionalOffer(&s) as OutstandingOffer?, at: slot)
    }
  }

  @inline(__always)
  private static func store<Value>(_ value: Value, at slot: UnsafeMutableRawPointer) {
    slot.assumingMemoryBound(to: Value.self).pointee = value
  }

  private static func readStrings(_ s: inout JSONScanner, _ cache: inout StringCache)
    throws(JSONScanner.Failure) -> [String]?
  {
    if try s.consumeNull() { return nil }
    var list: [String] = []
    try s.readArray { (s) throws(JSONScanner.Failure) in
      // Room for a few (features, tags) at once instead of growing from one to two to four.
      if list.isEmpty { list.reserveCapacity(4) }
      list.append(try s.readString(cache: &cache))
    }
    return list
  }

  private enum AuthorityKey { case status, outstandingOffer, other }

  private static func readAgentAuthority(
    _ s: inout JSONScanner, _ table: EntryTable, _ cache: inout StringCache
  ) throws(JSONScanner.Failure) -> AgentAuthority {
    var status: String?
    var offer: OutstandingOffer?
    var sawOffer = false
    if try s.enterObject() {
      defer { s.leaveMembers() }
      repeat {
        s.skipWhitespace()
        let key: AuthorityKey =
          if s.consumeKey(table.status) {
            .status
          } else if s.consumeKey(table.outstandingOffer) {
            .outstandingOffer
          } else {
            try s.readKey { (_, key) throws(JSONScanner.Failure) in
              key.equals("status")
                ? .status : key.equals("outstanding_offer") ? .outstandingOffer : .other
            }
          }
        switch key {
        case .status where status == nil: status = try s.readString(cache: &cache)
        case .outstandingOffer where !sawOffer:
          sawOffer = true
          offer = try readOptionalOffer(&s)
        default: try s.skipValue()
        }
      } while try s.endOfMember()
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
