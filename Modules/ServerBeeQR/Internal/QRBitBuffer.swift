/// A growing sequence of bits, most significant first, packed into bytes at the end.
struct QRBitBuffer: Sendable {
  private var storage: [Bool] = []

  /// The number of bits appended so far.
  var count: Int { storage.count }

  /// Appends the low `count` bits of `value`, most significant first.
  mutating func append(_ value: Int, count: Int) {
    guard count > 0 else { return }
    for shift in stride(from: count - 1, through: 0, by: -1) {
      storage.append((value >> shift) & 1 != 0)
    }
  }

  /// The bits packed into bytes; a partial last byte is padded with zero bits.
  var bytes: [UInt8] {
    stride(from: 0, to: storage.count, by: 8).map { start in
      var byte: UInt8 = 0
      for offset in 0..<8 {
        byte <<= 1
        if start + offset < storage.count, storage[start + offset] { byte |= 1 }
      }
      return byte
    }
  }
}
