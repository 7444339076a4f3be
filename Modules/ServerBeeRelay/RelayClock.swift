import Foundation
import ServerBeeModels

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
///
/// The relay refuses a push that expires more than 30 minutes after its own now (400
/// `InvalidRequest`), so a server whose clock was moved forward (the simulator's
/// `POST /__simulator/clock/advance`) needs a relay that moved too. Either let the relay read
/// the server's clock (`serverbee demo` does:
/// `RelayClock(now: { Int64(simulator.clock.now.timeIntervalSince1970) })`), or give it an
/// ``adjustable(_:)`` clock and advance both: `serverbee-relay` has one, moved by
/// `POST /__relay/clock/advance {"seconds":N}` and `POST /__relay/clock/set {"now":T}`.
public struct RelayClock: Sendable {
  /// The current time, in whole Unix seconds.
  public var now: @Sendable () -> Int64
  /// Sleeps for a duration (throws `CancellationError` when cancelled).
  public var sleep: @Sendable (Duration) async throws -> Void
  /// Moves ``now`` to a Unix time, for the control API's clock routes; `nil` (the default)
  /// when this clock cannot be moved (those routes then answer 404).
  public var setNow: (@Sendable (Int64) -> Void)?

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
    self.setNow = nil
  }

  /// The wall clock and the continuous clock's sleep.
  public static var system: RelayClock {
    RelayClock(now: { Int64(Date().timeIntervalSince1970.rounded(.down)) })
  }

  /// A clock that runs with `base` plus an offset that ``setNow`` changes (durations and
  /// sleeps are not affected).
  ///
  /// ```swift
  /// let clock = RelayClock.adjustable()
  /// clock.setNow?(clock.now() + 7200)  // two hours ahead, as the simulator after an advance
  /// ```
  /// - Parameter base: The clock to offset; the system clock by default.
  /// - Returns: The adjustable clock.
  public static func adjustable(_ base: RelayClock = .system) -> RelayClock {
    let offset = Locked<Int64>(0)
    var clock = RelayClock(
      now: { base.now() &+ offset.withLock { $0 } }, sleep: base.sleep)
    clock.setNow = { target in
      let current = base.now()
      offset.withLock { $0 = target &- current }
    }
    return clock
  }
}
