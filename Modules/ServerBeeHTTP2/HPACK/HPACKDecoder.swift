/// An HPACK decoder (RFC 7541): every representation, Huffman strings, the dynamic table and
/// its size updates, with a bound on the decoded header list.
///
/// ```swift
/// var decoder = HPACKDecoder()
/// let fields = try decoder.decode(block)   // [HPACKField], in order
/// ```
///
/// One decoder belongs to one connection direction and must see every header block the peer
/// sends, in order, including those of streams the receiver no longer cares about.
package struct HPACKDecoder: Sendable {
  private var table: HPACKDynamicTable
  /// The largest table size the peer may choose: our `SETTINGS_HEADER_TABLE_SIZE`.
  private let allowedTableSize: Int
  /// The most octets (RFC 9113 §6.5.2 `SETTINGS_MAX_HEADER_LIST_SIZE` accounting) one block
  /// may decode to.
  package var maximumHeaderListSize: Int

  /// Creates a decoder.
  /// - Parameters:
  ///   - maximumTableSize: Our `SETTINGS_HEADER_TABLE_SIZE`; 4096 by default.
  ///   - maximumHeaderListSize: The bound on a decoded block; 64 KiB by default.
  package init(maximumTableSize: Int = 4096, maximumHeaderListSize: Int = 65_536) {
    table = HPACKDynamicTable(maximumSize: maximumTableSize)
    allowedTableSize = maximumTableSize
    self.maximumHeaderListSize = maximumHeaderListSize
  }

  /// The dynamic table's current size in octets.
  package var tableSize: Int { table.size }
  /// The dynamic table's entries, newest first (for tests and diagnostics).
  package var tableEntries: [HPACKField] { (0..<table.count).compactMap { table.entry($0 + 1) } }

  /// Decodes one complete header block (the HEADERS fragment and its CONTINUATIONs joined).
  /// - Throws: ``HPACKError``; after one the connection must end (`COMPRESSION_ERROR`).
  package mutating func decode(_ block: [UInt8]) throws(HPACKError) -> [HPACKField] {
    var fields: [HPACKField] = []
    var offset = 0
    var listSize = 0
    while offset < block.count {
      let first = block[offset]
      if first & 0x80 != 0 {
        let index = try HPACKInteger.decode(block, at: &offset, prefixBits: 7)
        fields.append(try field(at: index))
      } else if first & 0xc0 == 0x40 {
        let field = try literal(block, at: &offset, prefixBits: 6)
        table.add(field.field, size: field.size)
        fields.append(field.field)
      } else if first & 0xe0 == 0x20 {
        guard fields.isEmpty else { throw .invalidTableSizeUpdate(-1) }
        let size = try HPACKInteger.decode(block, at: &offset, prefixBits: 5)
        guard size <= allowedTableSize else { throw .invalidTableSizeUpdate(size) }
        table.setMaximumSize(size)
      } else {
        // 0000xxxx without indexing, 0001xxxx never indexed.
        var field = try literal(block, at: &offset, prefixBits: 4).field
        field.indexing = first & 0x10 != 0 ? .never : .none
        fields.append(field)
      }
      if let last = fields.last {
        listSize += last.tableSize
        guard listSize <= maximumHeaderListSize else { throw .headerListTooLarge }
      }
    }
    return fields
  }

  private func field(at index: Int) throws(HPACKError) -> HPACKField {
    let staticCount = HPACKStaticTable.entries.count
    if index >= 1, index <= staticCount {
      let entry = HPACKStaticTable.entries[index - 1]
      return HPACKField(entry.name, entry.value)
    }
    guard index > staticCount, let field = table.entry(index - staticCount) else {
      throw .invalidIndex(index)
    }
    return field
  }

  /// A literal field; its size counts the octets as sent (a value that is not UTF-8 is kept
  /// with replacement characters, but the table accounting stays exact).
  private func literal(
    _ block: [UInt8], at offset: inout Int, prefixBits: Int
  ) throws(HPACKError) -> (field: HPACKField, size: Int) {
    let nameIndex = try HPACKInteger.decode(block, at: &offset, prefixBits: prefixBits)
    let name: String
    let nameLength: Int
    if nameIndex == 0 {
      let bytes = try string(block, at: &offset)
      name = String(decoding: bytes, as: UTF8.self)
      nameLength = bytes.count
    } else {
      name = try field(at: nameIndex).name
      nameLength = name.utf8.count
    }
    let value = try string(block, at: &offset)
    return (
      HPACKField(name, String(decoding: value, as: UTF8.self)), nameLength + value.count + 32
    )
  }

  private func string(_ block: [UInt8], at offset: inout Int) throws(HPACKError) -> [UInt8] {
    guard offset < block.count else { throw .truncated }
    let huffman = block[offset] & 0x80 != 0
    let length = try HPACKInteger.decode(block, at: &offset, prefixBits: 7)
    guard length <= block.count - offset else { throw .truncated }
    let bytes = block[offset..<offset + length]
    offset += length
    return huffman ? try HPACKHuffman.decode(bytes) : Array(bytes)
  }
}
