import Foundation

/// One server's element of `full_sync.servers`, written once from its row by
/// ``WireWriter/status(_:nowSeconds:)``'s own parts and kept until the row changes
/// (``ServerFragments``), and, once anyone has listed the servers, its element of the
/// `GET /api/servers` list, written by ``WireWriter/response(_:)`` from the same row read.
///
/// The one field that moves with time is an online server's `last_active`, the current second:
/// it is left out, between ``head`` and ``tail``, and written per frame, so a fragment never
/// goes stale by itself and the frame is byte for byte what the rows give.
struct ServerFragment: Sendable {
  /// The columns ``init(_:withListEntry:)`` reads: ``WireWriter/statusColumns`` (0–16), then
  /// `rowid`, `weight` and `created_at`; with the list entry, ``WireWriter/responseColumns``
  /// after them (from ``listColumn``). Two `SELECT`s, since SQLite reads every column a
  /// `SELECT` names, whether or not it is looked at.
  static func columns(withListEntry: Bool) -> String {
    withListEntry ? withList : withoutList
  }
  private static let withoutList = WireWriter.statusColumns + ", rowid, weight, created_at"
  private static let withList = withoutList + ", " + WireWriter.responseColumns
  /// Where ``WireWriter/responseColumns`` start in ``columns(withListEntry:)``.
  static let listColumn: Int32 = 20

  /// The object up to an online server's `last_active` value; all of an offline one, whose
  /// `last_active` (its `updated_at`) is in it.
  let head: String
  /// An online server's object after its `last_active` value; `nil` for an offline one.
  let tail: String?
  /// The row.
  let rowid: Int64
  /// The row's `weight`, as stored: with ``createdAt`` the list-order key; when either
  /// changes, the server may move in the list.
  let weight: SQLValue
  /// The row's `created_at`, as stored.
  let createdAt: SQLValue
  /// The server's element of the `GET /api/servers` list (a `ServerResponse`), when it was
  /// asked for.
  let listEntry: [UInt8]?

  /// Whether `other`, the same row read again, keeps its place in the list.
  func hasSameSortKey(as other: ServerFragment) -> Bool {
    weight == other.weight && createdAt == other.createdAt
  }

  /// Writes the row selected with ``columns(withListEntry:)``.
  /// - Parameters:
  ///   - row: The row.
  ///   - withListEntry: Whether the row holds the list's columns too, and ``listEntry`` is
  ///     written from them.
  /// - Throws: What ``WireWriter/statusClosing(_:_:)`` throws (nothing, in practice).
  init(_ row: Database.Columns, withListEntry: Bool) throws {
    var writer = WireWriter(capacity: 1024)
    let opening = try writer.statusOpening(row)
    var opened: String?
    if opening.online {
      opened = writer.text
      writer = WireWriter(capacity: 1024)
    } else {
      writer.int(WireWriter.offlineLastActive(row))
    }
    try writer.statusClosing(row, opening)
    // Cut at `"last_active":`, between ASCII bytes: each part is valid UTF-8 on its own, as
    // the whole object is (the writer repairs text columns as `String(decoding:)` does).
    if let opened {
      head = opened
      tail = writer.text
    } else {
      head = writer.text
      tail = nil
    }
    rowid = row.int(17) ?? 0
    weight = row.value(18)
    createdAt = row.value(19)
    if withListEntry {
      var list = WireWriter(capacity: 1024)
      try list.response(row.shifted(by: Self.listColumn))
      listEntry = list.bytes
    } else {
      listEntry = nil
    }
  }
}

extension WireWriter {
  /// A `full_sync` frame of kept server objects, in their order, an online server's
  /// `last_active` being `nowSeconds`: the bytes ``status(_:nowSeconds:)`` writes for their
  /// rows.
  ///
  /// Joined as `String`s, which were checked as UTF-8 when each object was written: a frame
  /// made from bytes is checked again whole (about 1 M instructions at 1,000 servers).
  static func fullSync(_ fragments: [ServerFragment], nowSeconds: Int64) -> String {
    let now = String(nowSeconds)
    // Twenty bytes covers any `last_active` and its comma.
    var size = 64
    for fragment in fragments { size += fragment.head.utf8.count + 21 }
    for fragment in fragments { size += fragment.tail?.utf8.count ?? 0 }
    var frame = "{\"type\":\"full_sync\",\"servers\":["
    frame.reserveCapacity(size)
    for (index, fragment) in fragments.enumerated() {
      if index > 0 { frame.append(",") }
      frame.append(fragment.head)
      if let tail = fragment.tail {
        frame.append(now)
        frame.append(tail)
      }
    }
    frame.append("],\"upgrades\":[]}")
    return frame
  }

  /// A whole `GET /api/servers` body, `{"data":[…]}`, of kept list entries in their order: the
  /// bytes ``serverList(rowsOf:)`` writes for their rows.
  /// - Returns: The body; `nil` when an entry was not kept (fragments read without the list's
  ///   columns).
  static func serverList(_ fragments: [ServerFragment]) -> Data? {
    var size = 16
    for fragment in fragments {
      guard let entry = fragment.listEntry else { return nil }
      size += entry.count + 1
    }
    var writer = WireWriter(capacity: size)
    writer.raw("{\"data\":[")
    for (index, fragment) in fragments.enumerated() {
      if index > 0 { writer.raw(",") }
      fragment.listEntry?.withUnsafeBufferPointer { writer.verbatim($0) }
    }
    writer.raw("]}")
    return writer.takeData()
  }
}
