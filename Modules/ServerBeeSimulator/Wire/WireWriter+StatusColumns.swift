import Foundation
import ServerBeeModels

// `full_sync` written straight from the rows as SQLite steps through them. A frame
// written from `ServerRow`s made about fifteen `String`s and two arrays per server, copied
// them into a `ServerStatus` and freed both: about 20 M of the 39 M instructions left in a
// `full_sync` that missed the cache. Here only what needs it becomes a `String`: text with
// an escape or a non-ASCII byte, and non-empty string arrays.

extension WireWriter {
  /// The columns ``status(_:nowSeconds:)`` reads, in its order: what
  /// ``ServerRow/status(nowSeconds:)`` uses of a row.
  static let statusColumns = """
    id, name, online, updated_at, live_json, mem_total, swap_total, disk_total, cpu_name, os, \
    region, country_code, group_id, features_json, tags_json, cpu_cores, live_numbers, \
    agent_claimed, \(ServerRow.openOfferColumn)
    """

  /// Writes one element of `full_sync.servers` from a row selected with ``statusColumns``:
  /// the bytes ``write(_:)-(ServerStatus)`` writes for
  /// `ServerRow(row).status(nowSeconds: nowSeconds)` (`WireWriterStatusColumnsTests`).
  /// - Throws: What ``agentAuthority(_:)`` throws (nothing, in practice).
  mutating func status(_ row: Database.Columns, nowSeconds: Int64) throws {
    let opening = try statusOpening(row)
    int(opening.online ? nowSeconds : Self.offlineLastActive(row))
    try statusClosing(row, opening)
  }

  /// What ``statusOpening(_:)`` read of a row, for ``statusClosing(_:_:)``.
  struct StatusOpening {
    /// Whether the server is online: then its `last_active` is the current second.
    var online: Bool
    /// Its live numbers (zero when offline).
    var live: LiveNumbers
  }

  /// The `last_active` of an offline server: its `updated_at`, in whole seconds.
  static func offlineLastActive(_ row: Database.Columns) -> Int64 {
    (row.int(3) ?? 0) / 1_000_000_000
  }

  /// Writes ``status(_:nowSeconds:)`` up to `"last_active":`, the value left to the caller
  /// (a ``ServerFragment`` keeps an online server's open, to be filled in per second).
  /// - Throws: What ``agentAuthority(_:)`` throws (nothing, in practice).
  mutating func statusOpening(_ row: Database.Columns) throws -> StatusOpening {
    let online = row.bool(2)
    var live = LiveNumbers()
    if online {
      // The packed copy when there is one (migration 7 keeps it equal to `live_json`).
      if let packed = row.withBlob(16, { LiveNumbers(packed: $0) }) ?? nil {
        live = packed
      } else if let plain = row.withText(4, { LiveNumbers(plainJSON: $0) }) ?? nil {
        live = plain
      } else if let text = row.text(4), let decoded = LiveNumbers(decoding: text) {
        live = decoded
      }
    }
    let opening = StatusOpening(online: online, live: live)
    for entry in WireField.statusOpening {
      let start = key(entry)
      if try !value(entry.field, row, opening) { absent(entry, keyAt: start) }
    }
    _ = key(WireField.lastActive)
    return opening
  }

  /// Writes the rest of ``status(_:nowSeconds:)``, after the `last_active` value.
  /// - Throws: What ``agentAuthority(_:)`` throws (nothing, in practice).
  mutating func statusClosing(_ row: Database.Columns, _ opening: StatusOpening) throws {
    for entry in WireField.statusClosing {
      let start = key(entry)
      if try !value(entry.field, row, opening) { absent(entry, keyAt: start) }
    }
    raw("}")
  }

  /// Writes `field`'s value from a row selected with ``statusColumns``; `false`, with nothing
  /// written, when the row has none. The one place that says where the simulator takes each
  /// field of a `full_sync` entry from: a column, a constant, or (`default`) its
  /// ``LiveNumbers``. What ``ServerRow/status(nowSeconds:)`` takes from a ``ServerRow``.
  ///
  /// Inlined into the loops: as a call it cost about 1.5 M instructions more per
  /// 1,000 rows (34 calls a row).
  @inline(__always)
  private mutating func value(
    _ field: MetricField, _ row: Database.Columns, _ opening: StatusOpening
  ) throws -> Bool {
    switch field {
    case .id: text(row, 0, orEmpty: true)
    case .name: text(row, 1, orEmpty: true)
    case .online: bool(opening.online)
    case .lastActive: preconditionFailure("last_active is written between opening and closing")
    case .memTotal: int(row.int(5) ?? 0)
    case .swapTotal: int(row.int(6) ?? 0)
    case .diskTotal: int(row.int(7) ?? 0)
    case .cpuName: return text(row, 8)
    case .os: return text(row, 9)
    case .region: return text(row, 10)
    case .countryCode: return text(row, 11)
    case .groupID: return text(row, 12)
    case .features: stringArray(row, 13, sorted: false)
    case .tags: stringArray(row, 14, sorted: true)
    case .cpuCores:
      guard let cores = row.int(15) else { return false }
      int(cores)
    case .agentAuthority: try agentAuthority(row, claimed: 17, offer: 18)
    case .hasToken: bool(row.bool(17))
    case .outstandingEnrollment:
      guard let offer = ServerRow.openOffer(row.text(18)) else { return false }
      try encoded(offer)
    default:
      switch opening.live.value(field) {
      case .integer(let number): int(number)
      case .float(let number): float(number)
      case nil: return false
      }
    }
    return true
  }

  /// Opens a `full_sync` frame, up to its first server.
  static let fullSyncOpening: StaticString = "{\"type\":\"full_sync\",\"servers\":["
  /// Closes a `full_sync` frame after its last server, with an empty `upgrades`: the jobs in
  /// flight take its place as the frame is sent (``SimulatorCore/fullSyncSource()``).
  static let fullSyncClosing: StaticString = "],\"upgrades\":[]}"

  /// A whole `full_sync` frame written as SQLite steps through the rows, in list order
  /// (`servers_list_order`), with no ``ServerRow``s: what every frame cost before
  /// ``ServerFragments``, and what one written inside a transaction still costs.
  /// - Parameters:
  ///   - db: The database, its lock held by the caller.
  ///   - nowSeconds: The `last_active` of online servers.
  /// - Returns: The frame, as the WebSocket sends it.
  /// - Throws: ``ServerBeeSimulatorError`` (`storageFailed`) from SQLite.
  static func fullSync(rowsOf db: Database, nowSeconds: Int64) throws -> String {
    var writer = WireWriter(capacity: 1 << 20)
    writer.raw(fullSyncOpening)
    var first = true
    try db.forEachRow("SELECT \(statusColumns) FROM servers \(listOrder)") { row in
      if !first { writer.raw(",") }
      first = false
      try writer.status(row, nowSeconds: nowSeconds)
    }
    writer.raw(fullSyncClosing)
    return writer.text
  }

  /// The order of every server list, the index `servers_list_order` (migration 6). Ties
  /// come out in rowid order, as the index holds them.
  static let listOrder = "ORDER BY weight DESC, created_at DESC"

  /// A `TEXT` column as a JSON string, as ``string(_:)-(String)`` writes the `String` that
  /// ``Database/Columns/text(_:)`` reads; when it is not text, `""` with `orEmpty`, else
  /// nothing (`false`). Printable ASCII without `"` or `\` is copied as is, which is what that
  /// writes for it.
  @discardableResult
  mutating func text(_ row: Database.Columns, _ column: Int32, orEmpty: Bool = false)
    -> Bool
  {
    let copied = row.withText(column) { text -> Bool in
      guard Self.isPlainASCII(text) else { return false }
      quoted(text)
      return true
    }
    guard let copied else {
      if orEmpty { raw("\"\"") }
      return orEmpty
    }
    if !copied { string(row.text(column) ?? "") }
    return true
  }

  /// Whether `text` is printable ASCII without `"` or `\`, which a JSON string holds as is;
  /// eight bytes at a time (a closure per byte was most of a text column's cost).
  static func isPlainASCII(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let start = text.baseAddress else { return true }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var index = 0
    while index + 8 <= text.count {
      let word = UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self)
      // A byte below 0x20, at or above 0x80, or equal to `"` or `\` sets its high bit here.
      let control = word &- ones &* 0x20
      let quote = (word ^ (ones &* 0x22)) &- ones
      let backslash = (word ^ (ones &* 0x5C)) &- ones
      let quoteZero = quote & ~(word ^ (ones &* 0x22))
      let backslashZero = backslash & ~(word ^ (ones &* 0x5C))
      if (word | (control & ~word) | quoteZero | backslashZero) & highs != 0 { return false }
      index += 8
    }
    while index < text.count {
      let byte = text[index]
      if byte < 0x20 || byte >= 0x80 || byte == 0x22 || byte == 0x5C { return false }
      index += 1
    }
    return true
  }

  /// A `[String]` JSON column as ``ServerRow`` reads it (`[]` when missing or not such an
  /// array), written as a JSON array, sorted when `sorted` (the tags).
  mutating func stringArray(_ row: Database.Columns, _ column: Int32, sorted: Bool) {
    let empty = row.withText(column) { $0.count == 2 && $0[0] == 0x5B && $0[1] == 0x5D }
    if empty == true {
      raw("[]")
      return
    }
    let values = ServerRow.strings(row, column)
    strings(sorted ? values.sorted() : values)
  }
}
