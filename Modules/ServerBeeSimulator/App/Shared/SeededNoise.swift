/// Deterministic noise for the simulator's made-up histories (insights, network probes, traceroutes, IP quality): a
/// number in `0..<1` that is a pure function of a key, a salt and a number, so every view of
/// the same history sees the same values for a given clock.
enum SeededNoise {
  /// FNV-1a over the bytes of `key`, `salt` and `number` (each key and salt followed by a zero
  /// byte), then splitmix64's final avalanche so that neighbouring numbers differ in every bit.
  static func unit(_ key: String, _ salt: String, _ number: Int) -> Double {
    Double(bits(key, salt, number) >> 11) / Double(UInt64(1) << 53)
  }

  /// The 64 bits behind ``unit(_:_:_:)``, for choosing among a few values (`bits % n`).
  static func bits(_ key: String, _ salt: String, _ number: Int) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ byte: UInt8) {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    for byte in key.utf8 { mix(byte) }
    mix(0)
    for byte in salt.utf8 { mix(byte) }
    mix(0)
    var value = UInt64(bitPattern: Int64(number))
    for _ in 0..<8 {
      mix(UInt8(truncatingIfNeeded: value))
      value >>= 8
    }
    hash ^= hash >> 30
    hash = hash &* 0xbf58_476d_1ce4_e5b9
    hash ^= hash >> 27
    hash = hash &* 0x94d0_49bb_1331_11eb
    hash ^= hash >> 31
    return hash
  }
}
