import Foundation

/// The relay's sense of time: Unix seconds for `expires_at` and the rate-limit windows, and a
/// sleep for timeouts and scripted delays.
///
/// Inject a manual clock in tests so that expiry and one-minute windows are instant:
///
/// ```swift
/// let now = Locked<Int64>(1_800_000_000)
/// let clock = RelayClock(now: { now.withLock { $0 } })
/// let relay = RelayServer(provider: ScriptedPushProvider(), clock: clock)
/// now.withLock { $0 += 60 }  // the next rate-limit window
/// ```
public struct RelayClock: Sendable {
  /// The current time, in whole Unix seconds.
  public var now: @Sendable () -> Int64
  /// Sleeps for a duration (throws `CancellationError` when cancelled).
  public var sleep: @Sendable (Duration) async throws -> Void

  /// Creates a clock.
  /// - Parameters:
  ///   - now: The current Unix time in seconds.
  ///   - sleep: Sleeps for a duration; by default the continuous clock's sleep.
  public init(
    now: @escaping @Sendable () -> Int64,
    sleep: @escaping @Sendable (Duration) async throws -> Void = { duration in
      try await ContinuousClock().sleep(for: duration)
    }
  ) {
    self.now = now
    self.sleep = sleep
  }

  /// The wall clock and the continuous clock's sleep.
  public static var system: RelayClock {
    RelayClock(now: { Int64(Date().timeIntervalSince1970.rounded(.down)) })
  }
}
