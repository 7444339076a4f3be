import Foundation

/// One server's kept objects, written once from its row and kept until the row changes
/// (``ServerFragments``): its element of `full_sync.servers`, written by
/// ``WireWriter/status(_:nowSeconds:)``'s own parts, and its element of the `GET /api/servers`
/// list, written by ``WireWriter/response(_:)``, each once something asked for it
/// (``Parts``), both from one row read.
///
/// The one field that moves with time is an online server's `last_active`, the current second:
/// it is left out, between ``head`` and ``tail``, and written per frame, so a fragment never
/// goes stale by itself and the frame is byte for byte what the rows give.
struct ServerFragment: Sendable {
  /// Which objects are written.
  struct Parts: OptionSet, Sendable {
    let rawValue: UInt8
    /// The `full_sync` element: ``head`` and ``tail``.
    static let frame = Parts(rawValue: 1)
    /// The list element: ``listEntry``.
    static let listEntry = Parts(rawValue: 2)
  }

  /// The columns ``init(_:parts:)`` reads: ``WireWriter/statusColumns`` (0–18), then `rowid`,
  /// `weight` and `created_at`; for the list entry, ``WireWriter/responseColumns`` after them
  /// (from ``listColumn``). Two `SELECT`s, since SQLite reads every column a `SELECT` names,
  /// whether or not it is looked at.
  static func columns(_ parts: Parts) -> String {
    parts.contains(.listEntry) ? withList : withoutList
  }
  private static let withoutList = WireWriter.statusColumns + ", rowid, weight, created_at"
  private static let withList = withoutList + ", " + WireWriter.responseColumns
  /// Where ``WireWriter/responseColumns`` start in ``columns(_:)``.
  static let listColumn: Int32 = 22

  /// The object up to an online server's `last_active` value; all of an offline one, whose
  /// `last_active` (its `updated_at`) is in it. `nil` without ``Parts/frame``.
  let head: String?
  /// An online server's object after its `last_active` value; `nil` for an offline one.
  let tail: String?
  /// The row.
  let rowid: Int64
  /// The row's `weight`, as stored: with ``createdAt`` the list-order key; when either
  /// changes, the server may move in the list.
  let weight: SQLValue
  /// The row's `created_at`, as stored.
  let createdAt: SQLValue
  /// The server's element of the `GET /api/servers` list (a `ServerResponse`); `nil` without
  /// ``Parts/listEntry``.
  let listEntry: [UInt8]?

  /// Whether `other`, the same row read again, keeps its place in the list.
  func hasSameSortKey(as other: ServerFragment) -> Bool {
    weight == other.weight && createdAt == other.createdAt
  }

  /// The bytes kept.
  var byteCount: Int {
    (head?.utf8.count ?? 0) + (tail?.utf8.count ?? 0) + (listEntry?.count ?? 0)
  }

  /// Writes the row selected with ``columns(_:)`` for `parts`.
  /// - Parameters:
  ///   - row: The row.
  ///   - parts: The objects to write.
  /// - Throws: What ``WireWriter/statusClosing(_:_:)`` throws (nothing, in practice).
  init(_ row: Database.Columns, parts: Parts) throws {
    (head, tail) = parts.contains(.frame) ? try Self.frameElement(row) : (nil, nil)
    rowid = row.int(19) ?? 0
    weight = row.value(20)
    createdAt = row.value(21)
    if parts.contains(.listEntry) {
      var list = WireWriter(capacity: 1024)
      try list.response(row.shifted(by: Self.listColumn))
      listEntry = list.bytes
    } else {
      listEntry = nil
    }
  }

  /// The `full_sync` element, cut at an online server's `last_active` value.
  private static func frameElement(_ row: Database.Columns) throws -> (String, String?) {
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
    if let opened { return (opened, writer.text) }
    return (writer.text, nil)
  }
}

extension WireWriter {
  /// A `full_sync` frame of kept server objects, in their order, an online server's
  /// `last_active` being `nowSeconds`: the bytes ``status(_:nowSeconds:)`` writes for their
  /// rows.
  ///
  /// Joined as `String`s, which were checked as UTF-8 when each object was written: a frame
  /// made from bytes is checked again whole (about 1 M instructions at 1,000 servers).
  /// - Returns: The frame; `nil` when an object was not kept (fragments read without
  ///   ``ServerFragment/Parts/frame``).
  static func fullSync(_ fragments: [ServerFragment], nowSeconds: Int64) -> String? {
    let now = String(nowSeconds)
    // Twenty bytes covers any `last_active` and its comma.
    var size = 64
    for fragment in fragments {
      guard let head = fragment.head else { return nil }
      size += head.utf8.count + 21 + (fragment.tail?.utf8.count ?? 0)
    }
    var frame = "{\"type\":\"full_sync\",\"servers\":["
    frame.reserveCapacity(size)
    for (index, fragment) in fragments.enumerated() {
      if index > 0 { frame.append(",") }
      frame.append(fragment.head ?? "")
      if let tail = fragment.tail {
        frame.append(now)
        frame.append(tail)
      }
    }
    frame.append("\(fullSyncClosing)")
    return frame
  }

  /// A whole `GET /api/servers` body, `{"data":[…]}`, of kept list entries in their order: the
  /// bytes ``serverList(rowsOf:)`` writes for their rows.
  /// - Returns: The body; `nil` when an entry was not kept (fragments read without
  ///   ``ServerFragment/Parts/listEntry``).
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
