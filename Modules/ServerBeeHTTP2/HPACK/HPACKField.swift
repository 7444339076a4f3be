/// One header field of an HTTP/2 header block, and how an encoder may index it.
///
/// ```swift
/// HPACKField(":path", "/3/device/\(token)", indexing: .none)    // never reused: not indexed
/// HPACKField("authorization", "bearer \(jwt)", indexing: .incremental)  // reused for minutes
/// ```
package struct HPACKField: Hashable, Sendable, CustomStringConvertible {
  /// How the encoder represents a field that is not fully in a table (RFC 7541 §6.2).
  package enum Indexing: Hashable, Sendable {
    /// Literal with incremental indexing (§6.2.1): added to the dynamic table.
    case incremental
    /// Literal without indexing (§6.2.2).
    case none
    /// Literal never indexed (§6.2.3): intermediaries must not index it either.
    case never
  }

  /// The lowercase name.
  package var name: String
  /// The value.
  package var value: String
  /// How an encoder may index it; ignored by equality and hashing.
  package var indexing: Indexing

  /// Creates a field.
  package init(_ name: String, _ value: String, indexing: Indexing = .incremental) {
    self.name = name
    self.value = value
    self.indexing = indexing
  }

  /// Its size for the dynamic table (RFC 7541 §4.1): name and value octets plus 32.
  package var tableSize: Int { name.utf8.count + value.utf8.count + 32 }

  package static func == (lhs: HPACKField, rhs: HPACKField) -> Bool {
    lhs.name == rhs.name && lhs.value == rhs.value
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(value)
  }

  /// `name: value`; callers must not print fields that hold secrets.
  package var description: String { "\(name): \(value)" }
}

/// The HPACK dynamic table (RFC 7541 §2.3.2, §4): newest first, evicting the oldest to stay
/// within the maximum size.
struct HPACKDynamicTable {
  private(set) var entries: [(field: HPACKField, size: Int)] = []
  /// Newest entries are at the end of `entries`; index 1 of the table is `entries.last`.
  private(set) var size = 0
  private(set) var maximumSize: Int

  init(maximumSize: Int) { self.maximumSize = maximumSize }

  var count: Int { entries.count }

  /// The entry at dynamic index `index` (1 = newest).
  func entry(_ index: Int) -> HPACKField? {
    guard index >= 1, index <= entries.count else { return nil }
    return entries[entries.count - index].field
  }

  /// Adds a field of `size` octets (as sent), evicting old entries first; a field larger than
  /// the table empties it (§4.4).
  mutating func add(_ field: HPACKField, size: Int) {
    evict(toFit: maximumSize - size)
    guard size <= maximumSize else { return }
    entries.append((field, size))
    self.size += size
  }

  mutating func setMaximumSize(_ newValue: Int) {
    maximumSize = newValue
    evict(toFit: newValue)
  }

  private mutating func evict(toFit limit: Int) {
    var drop = 0
    while size > max(limit, 0), drop < entries.count {
      size -= entries[drop].size
      drop += 1
    }
    if drop > 0 { entries.removeFirst(drop) }
  }

  /// The dynamic index (1 = newest) of an exact match, and of a name match.
  func find(_ field: HPACKField) -> (full: Int?, name: Int?) {
    var nameMatch: Int?
    for offset in stride(from: entries.count - 1, through: 0, by: -1) {
      let candidate = entries[offset].field
      guard candidate.name == field.name else { continue }
      let index = entries.count - offset
      if candidate.value == field.value { return (index, index) }
      if nameMatch == nil { nameMatch = index }
    }
    return (nil, nameMatch)
  }
}
