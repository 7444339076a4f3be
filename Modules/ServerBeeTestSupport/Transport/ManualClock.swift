import Foundation

/// A `Clock` that only moves when a test calls ``advance(by:)``.
///
/// ```swift
/// let clock = ManualClock()
/// let sut = Thing(clock: clock)
/// await clock.waitForSleepers(1)      // the code under test is now sleeping
/// clock.advance(by: .seconds(25))     // wakes every sleeper whose deadline passed
/// ```
package final class ManualClock: Clock, @unchecked Sendable {
  // @unchecked: all mutable state is behind `lock`.

  /// A point on the manual time line.
  package struct Instant: InstantProtocol {
    /// Time since the clock was created.
    package var offset: Duration

    /// Moves the instant.
    /// - Parameter duration: The distance.
    /// - Returns: The moved instant.
    package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

    /// The distance to another instant.
    /// - Parameter other: The other instant.
    /// - Returns: `other - self`.
    package func duration(to other: Instant) -> Duration { other.offset - offset }

    /// Orders instants.
    /// - Parameters:
    ///   - lhs: One instant.
    ///   - rhs: Another instant.
    /// - Returns: Whether `lhs` is earlier.
    package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    var id: Int
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private let lock = NSLock()
  private var current = Instant(offset: .zero)
  private var sleepers: [Sleeper] = []
  private var nextID = 0
  private var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

  /// Creates a clock at offset zero.
  package init() {}

  /// The current instant.
  package var now: Instant { lock.withLock { current } }

  /// Zero: the clock is exact.
  package var minimumResolution: Duration { .zero }

  /// The number of tasks sleeping on the clock now.
  package var sleeperCount: Int { lock.withLock { sleepers.count } }

  /// Suspends until ``advance(by:)`` moves the clock to `deadline` or beyond.
  /// - Parameters:
  ///   - deadline: When to wake.
  ///   - tolerance: Ignored.
  /// - Throws: `CancellationError` when the sleeping task is cancelled.
  package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = lock.withLock { () -> Int in
      nextID += 1
      return nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let (resumeNow, ready) = lock.withLock { () -> (Bool, [CheckedContinuation<Void, Never>]) in
          if deadline <= current || Task.isCancelled { return (true, []) }
          sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          let ready = sleeperWaiters.filter { $0.count <= sleepers.count }.map(\.continuation)
          sleeperWaiters.removeAll { $0.count <= sleepers.count }
          return (false, ready)
        }
        for waiter in ready { waiter.resume() }
        if resumeNow {
          if Task.isCancelled {
            continuation.resume(throwing: CancellationError())
          } else {
            continuation.resume()
          }
        }
      }
    } onCancel: {
      let sleeper = lock.withLock { () -> Sleeper? in
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock forward and wakes every sleeper whose deadline has passed.
  /// - Parameter duration: How far to move.
  package func advance(by duration: Duration) {
    let due = lock.withLock { () -> [Sleeper] in
      current = current.advanced(by: duration)
      let due = sleepers.filter { $0.deadline <= current }
      sleepers.removeAll { $0.deadline <= current }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Waits until at least `count` tasks are sleeping on the clock.
  /// - Parameter count: The number of sleepers to wait for.
  package func waitForSleepers(_ count: Int = 1) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = lock.withLock { () -> Bool in
        if sleepers.count >= count { return true }
        sleeperWaiters.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }
}
