import Foundation

/// One server's element of `full_sync.servers`, written once from its row by
/// ``WireWriter/status(_:nowSeconds:)``'s own parts and kept until the row changes
/// (``ServerFragments``).
///
/// The one field that moves with time is an online server's `last_active`, the current second:
/// it is left out, between ``head`` and ``tail``, and written per frame, so a fragment never
/// goes stale by itself and the frame is byte for byte what the rows give.
struct ServerFragment: Sendable {
  /// The columns ``init(_:)`` reads: ``WireWriter/statusColumns`` (0–16), then `rowid`,
  /// `weight` and `created_at`.
  static let columns = WireWriter.statusColumns + ", rowid, weight, created_at"

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

  /// Whether `other`, the same row read again, keeps its place in the list.
  func hasSameSortKey(as other: ServerFragment) -> Bool {
    weight == other.weight && createdAt == other.createdAt
  }

  /// Writes the row selected with ``columns``.
  /// - Throws: What ``WireWriter/statusClosing(_:_:)`` throws (nothing, in practice).
  init(_ row: Database.Columns) throws {
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
}
