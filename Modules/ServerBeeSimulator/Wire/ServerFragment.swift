import Foundation

/// One server's element of `full_sync.servers`, written once from its row by
/// ``WireWriter/status(_:nowSeconds:)``'s own parts and kept until the row changes
/// (``ServerFragments``, issue 24).
///
/// The one field that moves with time is an online server's `last_active`, the current second:
/// it is left out of ``bytes`` and written per frame at ``lastActiveOffset``, so a fragment
/// never goes stale by itself and the frame is byte for byte what the rows give.
struct ServerFragment: Sendable {
  /// The columns ``init(_:)`` reads: ``WireWriter/statusColumns`` (0–16), then `rowid`,
  /// `weight` and `created_at`.
  static let columns = WireWriter.statusColumns + ", rowid, weight, created_at"

  /// The object's bytes, less an online server's `last_active` value.
  let bytes: [UInt8]
  /// Where an online server's `last_active` goes in ``bytes``; `nil` for an offline one,
  /// whose `last_active` (its `updated_at`) is in them.
  let lastActiveOffset: Int?
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
    let opening = writer.statusOpening(row)
    if opening.online {
      lastActiveOffset = writer.byteCount
    } else {
      lastActiveOffset = nil
      writer.int(WireWriter.offlineLastActive(row))
    }
    try writer.statusClosing(row, opening.live)
    bytes = writer.bytes
    rowid = row.int(17) ?? 0
    weight = row.value(18)
    createdAt = row.value(19)
  }
}

extension WireWriter {
  /// Appends a kept server object, an online server's `last_active` being `nowSeconds`: the
  /// bytes ``status(_:nowSeconds:)`` writes for its row.
  mutating func fragment(_ fragment: ServerFragment, nowSeconds: Int64) {
    fragment.bytes.withUnsafeBufferPointer { bytes in
      guard let offset = fragment.lastActiveOffset else {
        raw(bytes)
        return
      }
      raw(UnsafeBufferPointer(rebasing: bytes[..<offset]))
      int(nowSeconds)
      raw(UnsafeBufferPointer(rebasing: bytes[offset...]))
    }
  }

  /// A `full_sync` frame of kept server objects, in their order.
  static func fullSync(_ fragments: [ServerFragment], nowSeconds: Int64) -> String {
    // Twenty bytes covers any `last_active` and its comma.
    var size = 64
    for fragment in fragments { size += fragment.bytes.count + 21 }
    var writer = WireWriter(capacity: size)
    writer.raw(fullSyncOpening)
    for (index, fragment) in fragments.enumerated() {
      if index > 0 { writer.raw(",") }
      writer.fragment(fragment, nowSeconds: nowSeconds)
    }
    writer.raw(fullSyncClosing)
    return writer.text
  }
}
