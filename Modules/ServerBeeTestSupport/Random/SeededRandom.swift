/// A deterministic random number generator (SplitMix64) for tests that need repeatable bytes.
///
/// ```swift
/// var random = SeededRandom(seed: 42)
/// let bytes = random.bytes(32)  // the same 32 bytes on every run
/// ```
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator.
  /// - Parameter seed: The seed; equal seeds give equal sequences.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  /// - Returns: A pseudo-random value.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The next `count` random bytes.
  /// - Parameter count: How many bytes.
  /// - Returns: The bytes.
  public mutating func bytes(_ count: Int) -> [UInt8] {
    (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
  }
}
