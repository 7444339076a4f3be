import ServerBeeTransport

/// RFC 6455 §5.3 masking: XOR with a 4-byte key, eight bytes at a time.
///
/// The key is widened to a 64-bit word once; the loop then does unaligned 8-byte loads and stores,
/// which the optimiser keeps in registers (≥ 1 GB/s for 64 KiB frames is the budget; see
/// `serverbee-bench ws-codec`). Masking is its own inverse.
package enum WebSocketMask {
  /// XORs `buffer` in place with `key`, starting at key byte `phase` (0 for a whole payload).
  /// - Parameters:
  ///   - buffer: The bytes to mask or unmask.
  ///   - key: The 4 key bytes, in wire order.
  ///   - phase: The key byte that applies to `buffer[0]`.
  @inlinable
  package static func apply(
    _ buffer: UnsafeMutableRawBufferPointer, key: (UInt8, UInt8, UInt8, UInt8), phase: Int = 0
  ) {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    var word: UInt64 = 0
    withUnsafeBytes(of: key) { keyBytes in
      withUnsafeMutableBytes(of: &word) { wordBytes in
        for index in 0..<8 { wordBytes[index] = keyBytes[(index + phase) & 3] }
      }
    }
    let count = buffer.count
    var offset = 0
    while offset + 32 <= count {
      let a = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      let b = base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
      let c = base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)
      let d = base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)
      base.storeBytes(of: a ^ word, toByteOffset: offset, as: UInt64.self)
      base.storeBytes(of: b ^ word, toByteOffset: offset + 8, as: UInt64.self)
      base.storeBytes(of: c ^ word, toByteOffset: offset + 16, as: UInt64.self)
      base.storeBytes(of: d ^ word, toByteOffset: offset + 24, as: UInt64.self)
      offset += 32
    }
    while offset + 8 <= count {
      let a = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      base.storeBytes(of: a ^ word, toByteOffset: offset, as: UInt64.self)
      offset += 8
    }
    // The word holds the key starting at `phase`, so byte `offset & 7` lines up with `offset`.
    withUnsafeBytes(of: word) { wordBytes in
      while offset < count {
        buffer[offset] ^= wordBytes[offset & 7]
        offset += 1
      }
    }
  }

  /// XORs `bytes` in place with `key`.
  /// - Parameters:
  ///   - bytes: The bytes to mask or unmask.
  ///   - key: The 4 key bytes, in wire order.
  @inlinable
  package static func apply(_ bytes: inout [UInt8], key: (UInt8, UInt8, UInt8, UInt8)) {
    bytes.withUnsafeMutableBytes { apply($0, key: key) }
  }
}
