/// Deterministic noise for the simulator's made-up histories (insights, network probes,
/// traceroutes, IP quality): a number in `0..<1` that is a pure function of a key, a salt and a
/// number, so every view of the same history sees the same values for a given clock.
enum SeededNoise {
  /// FNV-1a over the bytes of `key`, `salt` and `number` (each key and salt followed by a zero
  /// byte), then splitmix64's final avalanche so that neighbouring numbers differ in every bit.
  static func unit(_ key: String, _ salt: String, _ number: Int) -> Double {
    Seed(key, salt).unit(number)
  }

  /// The 64 bits behind ``unit(_:_:_:)``, for choosing among a few values (`bits % n`).
  static func bits(_ key: String, _ salt: String, _ number: Int) -> UInt64 {
    Seed(key, salt).bits(number)
  }

  /// The hash after one key and salt: many numbers of the same key and salt (a week of probes
  /// is 10,080 a target) then cost only their own eight bytes, with the same values as
  /// ``SeededNoise/unit(_:_:_:)``.
  struct Seed {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    init(_ key: String, _ salt: String) {
      for byte in key.utf8 { mix(byte) }
      mix(0)
      for byte in salt.utf8 { mix(byte) }
      mix(0)
    }

    private mutating func mix(_ byte: UInt8) {
      state ^= UInt64(byte)
      state = state &* 0x0000_0100_0000_01b3
    }

    /// The 64 bits for `number`.
    func bits(_ number: Int) -> UInt64 {
      var hash = self
      var value = UInt64(bitPattern: Int64(number))
      for _ in 0..<8 {
        hash.mix(UInt8(truncatingIfNeeded: value))
        value >>= 8
      }
      var mixed = hash.state
      mixed ^= mixed >> 30
      mixed = mixed &* 0xbf58_476d_1ce4_e5b9
      mixed ^= mixed >> 27
      mixed = mixed &* 0x94d0_49bb_1331_11eb
      mixed ^= mixed >> 31
      return mixed
    }

    /// A number in `0..<1` for `number`.
    func unit(_ number: Int) -> Double { Double(bits(number) >> 11) / Double(UInt64(1) << 53) }
  }
}
