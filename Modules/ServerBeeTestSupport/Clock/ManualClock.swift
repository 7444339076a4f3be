public import Foundation

/// A `Clock` whose time only moves when a test calls ``advance(by:)``.
///
/// Code under test takes `any Clock<Duration>` and sleeps on it; the test waits until the code is
/// asleep, then moves time forward, with no real waiting:
///
/// ```swift
/// let clock = ManualClock()
/// let client = makeClient(clock: clock, now: { clock.currentDate })
/// await clock.waitForSleepers(1)
/// clock.advance(by: .seconds(840))  // wakes every sleeper whose deadline has passed
/// ```
///
/// ``currentDate`` moves with the clock, so a `now: () -> Date` seam can follow it.
public final class ManualClock: Clock, @unchecked Sendable {
  // Safe to share: every stored mutable property is only touched while `lock` is held, and
  // continuations are resumed after the lock is released.

  /// A point on the manual timeline: the time elapsed since the clock was created.
  public struct Instant: InstantProtocol, Hashable, Sendable {
    /// The time since the clock's start.
    public var offset: Duration

    /// Creates an instant.
    /// - Parameter offset: The time since the clock's start.
    public init(offset: Duration) { self.offset = offset }

    /// The instant `duration` later.
    /// - Parameter duration: The distance.
    /// - Returns: The later instant.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The distance from this instant to another.
    /// - Parameter other: The other instant.
    /// - Returns: `other - self`.
    public func duration(to other: Instant) -> Duration { other.offset - offset }

    /// Orders instants.
    /// - Parameters:
    ///   - lhs: An instant.
    ///   - rhs: Another instant.
    /// - Returns: Whether `lhs` is earlier.
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    let id: UUID
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private let lock = NSLock()
  private var offset: Duration = .zero
  private var sleepers: [Sleeper] = []
  private var sleeperWaiters: [(Int, CheckedContinuation<Void, Never>)] = []
  private let startDate: Date

  /// Creates a clock at offset zero.
  /// - Parameter startDate: The wall-clock date that offset zero stands for.
  public init(startDate: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    self.startDate = startDate
  }

  /// The current instant.
  public var now: Instant { lock.withLock { Instant(offset: offset) } }

  /// The clock's resolution: exact.
  public var minimumResolution: Duration { .zero }

  /// The wall-clock date of the current instant: the start date plus the elapsed time.
  public var currentDate: Date {
    let elapsed = lock.withLock { offset }
    let (seconds, attoseconds) = elapsed.components
    return startDate.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
  }

  /// The number of tasks currently asleep on this clock.
  public var sleeperCount: Int { lock.withLock { sleepers.count } }

  /// Suspends until the clock reaches `deadline` or the task is cancelled.
  /// - Parameters:
  ///   - deadline: When to wake.
  ///   - tolerance: Ignored.
  /// - Throws: `CancellationError` when the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = UUID()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let (wakeNow, ready) = lock.withLock { () -> (Bool, [CheckedContinuation<Void, Never>]) in
          if deadline.offset <= offset || Task.isCancelled { return (true, []) }
          sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return (false, takeReadySleeperWaiters())
        }
        for waiter in ready { waiter.resume() }
        if wakeNow {
          if Task.isCancelled {
            continuation.resume(throwing: CancellationError())
          } else {
            continuation.resume()
          }
        }
      }
    } onCancel: {
      let cancelled = lock.withLock { () -> Sleeper? in
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return sleepers.remove(at: index)
      }
      cancelled?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward and wakes every sleeper whose deadline has been reached, earliest first.
  /// - Parameter duration: How far to move; must not be negative.
  public func advance(by duration: Duration) {
    let due = lock.withLock { () -> [Sleeper] in
      offset += duration
      let due = sleepers.filter { $0.deadline.offset <= offset }
        .sorted { $0.deadline.offset < $1.deadline.offset }
      sleepers.removeAll { $0.deadline.offset <= offset }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Suspends until at least `count` tasks are asleep on this clock.
  /// - Parameter count: The number of sleepers to wait for.
  public func waitForSleepers(_ count: Int = 1) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = lock.withLock { () -> Bool in
        if sleepers.count >= count { return true }
        sleeperWaiters.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// Removes and returns the waiters whose count is reached; call with `lock` held.
  private func takeReadySleeperWaiters() -> [CheckedContinuation<Void, Never>] {
    var ready: [CheckedContinuation<Void, Never>] = []
    var remaining: [(Int, CheckedContinuation<Void, Never>)] = []
    for (count, continuation) in sleeperWaiters {
      if sleepers.count >= count {
        ready.append(continuation)
      } else {
        remaining.append((count, continuation))
      }
    }
    sleeperWaiters = remaining
    return ready
  }
}
