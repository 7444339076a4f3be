/// An HPACK encoder (RFC 7541): static and dynamic table indexing, Huffman coding where it is
/// not longer, and dynamic table size updates after the peer changes
/// `SETTINGS_HEADER_TABLE_SIZE`.
///
/// ```swift
/// var encoder = HPACKEncoder()
/// let block = encoder.encode([
///   HPACKField(":method", "POST"), HPACKField(":path", "/3/device/ab", indexing: .none),
/// ])
/// ```
///
/// One encoder belongs to one connection direction: every block it produces must be sent, in
/// order, or the peer's table drifts from ours.
package struct HPACKEncoder: Sendable {
  private var table: HPACKDynamicTable
  /// The smallest size set since the last block, and whether an update must be signalled.
  private var pendingMinimum: Int?
  /// The cap we never exceed, whatever the peer allows.
  private let ceiling: Int
  /// Whether strings are Huffman-coded when that is not longer.
  package var usesHuffman: Bool

  /// Creates an encoder.
  /// - Parameters:
  ///   - maximumTableSize: The table size to use, at most the peer's
  ///     `SETTINGS_HEADER_TABLE_SIZE` (4096 until the peer says otherwise).
  ///   - usesHuffman: Whether to Huffman-code strings; `true` by default.
  package init(maximumTableSize: Int = 4096, usesHuffman: Bool = true) {
    ceiling = maximumTableSize
    table = HPACKDynamicTable(maximumSize: maximumTableSize)
    self.usesHuffman = usesHuffman
  }

  /// The dynamic table's current size in octets (RFC 7541 §4.1).
  package var tableSize: Int { table.size }

  /// Applies the peer's `SETTINGS_HEADER_TABLE_SIZE`: the table shrinks at once (evicting), and
  /// the next block starts with the size update(s) §4.2 requires.
  package mutating func peerAllowsTableSize(_ size: Int) {
    let newSize = min(size, ceiling)
    guard newSize != table.maximumSize || pendingMinimum != nil else { return }
    pendingMinimum = min(pendingMinimum ?? newSize, newSize, table.maximumSize)
    table.setMaximumSize(newSize)
  }

  /// Encodes one header block.
  package mutating func encode(_ fields: [HPACKField]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(fields.count * 24)
    if let minimum = pendingMinimum {
      pendingMinimum = nil
      HPACKInteger.encode(minimum, prefixBits: 5, flags: 0x20, into: &output)
      if minimum != table.maximumSize {
        HPACKInteger.encode(table.maximumSize, prefixBits: 5, flags: 0x20, into: &output)
      }
    }
    for field in fields { encode(field, into: &output) }
    return output
  }

  private mutating func encode(_ field: HPACKField, into output: inout [UInt8]) {
    let staticCount = HPACKStaticTable.entries.count
    if let index = HPACKStaticTable.fullIndex[field] {
      HPACKInteger.encode(index, prefixBits: 7, flags: 0x80, into: &output)
      return
    }
    let dynamic = table.find(field)
    if field.indexing != .never, let index = dynamic.full {
      HPACKInteger.encode(staticCount + index, prefixBits: 7, flags: 0x80, into: &output)
      return
    }
    let nameIndex =
      HPACKStaticTable.nameIndex[field.name] ?? dynamic.name.map { staticCount + $0 } ?? 0
    switch field.indexing {
    case .incremental:
      HPACKInteger.encode(nameIndex, prefixBits: 6, flags: 0x40, into: &output)
    case .none:
      HPACKInteger.encode(nameIndex, prefixBits: 4, flags: 0x00, into: &output)
    case .never:
      HPACKInteger.encode(nameIndex, prefixBits: 4, flags: 0x10, into: &output)
    }
    if nameIndex == 0 { appendString(field.name, to: &output) }
    appendString(field.value, to: &output)
    if field.indexing == .incremental { table.add(field, size: field.tableSize) }
  }

  private func appendString(_ text: String, to output: inout [UInt8]) {
    let bytes = text.utf8
    if usesHuffman {
      let coded = HPACKHuffman.encodedLength(bytes)
      if coded <= bytes.count {
        HPACKInteger.encode(coded, prefixBits: 7, flags: 0x80, into: &output)
        HPACKHuffman.encode(bytes, into: &output)
        return
      }
    }
    HPACKInteger.encode(bytes.count, prefixBits: 7, flags: 0x00, into: &output)
    output.append(contentsOf: bytes)
  }
}
