/// Exponential backoff with full jitter for the device stream: the ceiling doubles from
/// `initial` up to `maximum`, and each delay is uniform in `0...ceiling`, so devices that lost
/// the same relay at the same moment do not all come back at once.
///
/// A pure value: the random source is passed in, so tests choose the delays.
struct RelayBackoff: Sendable, Hashable {
  let initial: Duration
  let maximum: Duration
  /// Failed attempts since the last connection.
  private(set) var failures = 0

  init(initial: Duration, maximum: Duration) {
    self.initial = initial
    self.maximum = max(initial, maximum)
  }

  /// The ceiling for the next delay: `initial × 2^failures`, capped at `maximum`.
  var ceiling: Duration {
    var ceiling = initial
    for _ in 0..<min(failures, 62) {
      ceiling *= 2
      if ceiling >= maximum { return maximum }
    }
    return min(ceiling, maximum)
  }

  /// The next delay, and one more failure counted.
  /// - Parameter random: Uniform in `0..<1`; values outside are clamped.
  /// - Returns: A delay between zero and ``ceiling``.
  mutating func nextDelay(random: Double) -> Duration {
    let delay = ceiling * min(max(random, 0), 1)
    failures += 1
    return delay
  }

  /// A connection succeeded: start again from `initial`.
  mutating func reset() { failures = 0 }
}
