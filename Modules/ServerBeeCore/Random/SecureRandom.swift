/// Cryptographically secure random bytes, the one default source in ServerBeeKit.
///
/// It is `SystemRandomNumberGenerator`, which the Swift standard library documents as
/// cryptographically secure on every platform: `arc4random_buf` on Apple platforms, `getrandom`
/// on Linux (the process traps if the kernel cannot give entropy, which no caller could recover
/// from anyway). Types that need randomness take a ``RandomBytes`` closure in their initialiser
/// so a test can pass a seeded one; this is what they use by default.
///
/// ```swift
/// let key = SecureRandom.bytes(32)
/// let sealer = Sealer(randomBytes: SecureRandom.bytes)
/// ```
package enum SecureRandom {
  /// `count` random bytes.
  @Sendable package static func bytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    var out = [UInt8](repeating: 0, count: max(0, count))
    var index = 0
    while index < out.count {
      var word = generator.next() as UInt64
      for _ in 0..<min(8, out.count - index) {
        out[index] = UInt8(truncatingIfNeeded: word)
        word >>= 8
        index += 1
      }
    }
    return out
  }
}

/// A source of random bytes: returns exactly as many as asked for. ``SecureRandom/bytes(_:)``
/// by default; tests inject a seeded one.
package typealias RandomBytes = @Sendable (Int) -> [UInt8]
