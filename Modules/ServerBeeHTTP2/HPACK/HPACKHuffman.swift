/// Huffman coding of HPACK string literals (RFC 7541 §5.2, the code of Appendix B).
enum HPACKHuffman {
  /// A decoding tree: `nodes[i]` holds the child for bit 0 and bit 1; a child below zero is a
  /// leaf holding `-(symbol + 1)`.
  private static let tree: [(Int32, Int32)] = {
    var nodes: [(Int32, Int32)] = [(0, 0)]
    for symbol in 0..<HPACKHuffmanTable.codes.count {
      let code = HPACKHuffmanTable.codes[symbol]
      let length = Int(HPACKHuffmanTable.lengths[symbol])
      var node = 0
      for position in stride(from: length - 1, through: 0, by: -1) {
        let bit = (code >> UInt32(position)) & 1
        let next = bit == 0 ? nodes[node].0 : nodes[node].1
        if position == 0 {
          if bit == 0 {
            nodes[node].0 = -Int32(symbol + 1)
          } else {
            nodes[node].1 = -Int32(symbol + 1)
          }
        } else if next > 0 {
          node = Int(next)
        } else {
          nodes.append((0, 0))
          let created = Int32(nodes.count - 1)
          if bit == 0 { nodes[node].0 = created } else { nodes[node].1 = created }
          node = Int(created)
        }
      }
    }
    return nodes
  }()

  /// Decodes a Huffman-coded string.
  /// - Throws: `HPACKError.invalidHuffman` for the EOS symbol, padding longer than 7 bits or
  ///   padding that is not the most significant bits of EOS (all ones), as §5.2 requires.
  static func decode(_ bytes: ArraySlice<UInt8>) throws(HPACKError) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count * 8 / 5)
    var node = 0
    // Bits consumed since the last complete symbol, and whether they were all ones.
    var pendingBits = 0
    var pendingAllOnes = true
    for byte in bytes {
      for position in stride(from: 7, through: 0, by: -1) {
        let bit = (byte >> UInt8(position)) & 1
        let next = bit == 0 ? tree[node].0 : tree[node].1
        pendingBits += 1
        if bit == 0 { pendingAllOnes = false }
        if next < 0 {
          let symbol = Int(-next - 1)
          guard symbol < 256 else { throw .invalidHuffman }
          output.append(UInt8(symbol))
          node = 0
          pendingBits = 0
          pendingAllOnes = true
        } else if next == 0 {
          throw .invalidHuffman
        } else {
          node = Int(next)
        }
      }
    }
    guard pendingBits <= 7, pendingAllOnes else { throw .invalidHuffman }
    return output
  }

  /// The length in bytes of `bytes` Huffman-coded.
  static func encodedLength(_ bytes: some Collection<UInt8>) -> Int {
    var bits = 0
    for byte in bytes { bits += Int(HPACKHuffmanTable.lengths[Int(byte)]) }
    return (bits + 7) / 8
  }

  /// Appends `bytes` Huffman-coded, padded with the most significant bits of EOS (ones).
  static func encode(_ bytes: some Collection<UInt8>, into output: inout [UInt8]) {
    var accumulator: UInt64 = 0
    var count = 0
    for byte in bytes {
      let length = Int(HPACKHuffmanTable.lengths[Int(byte)])
      accumulator = (accumulator << UInt64(length)) | UInt64(HPACKHuffmanTable.codes[Int(byte)])
      count += length
      while count >= 8 {
        count -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> UInt64(count)))
      }
    }
    if count > 0 {
      let padding = 8 - count
      output.append(
        UInt8(truncatingIfNeeded: (accumulator << UInt64(padding)) | ((1 << UInt64(padding)) - 1)))
    }
  }
}
