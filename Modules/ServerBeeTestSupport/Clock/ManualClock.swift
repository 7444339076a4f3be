/// A `Clock` that only moves when a test calls ``advance(by:)``.
///
/// Sleepers registered with `sleep(until:)` wake, in deadline order, when the clock reaches their
/// deadline; cancelling a sleeper's task wakes it with `CancellationError`. A test that needs the
/// code under test to be waiting first awaits ``waitForSleepers(_:)``:
///
/// ```swift
/// let clock = ManualClock()
/// let task = Task { try await clock.sleep(for: .seconds(30)) }
/// await clock.waitForSleepers(1)
/// clock.advance(by: .seconds(30))   // the task finishes
/// ```
package final class ManualClock: Clock, Sendable {
  /// An instant of the manual clock: the time advanced since its creation.
  package struct Instant: InstantProtocol, Hashable, Sendable {
    /// Time since the clock started.
    package var offset: Duration

    /// Creates an instant.
    package init(offset: Duration) { self.offset = offset }
    /// The instant `duration` later.
    package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    /// The duration from this instant to `other`.
    package func duration(to other: Instant) -> Duration { other.offset - offset }
    /// Orders instants.
    package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    var id: Int
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var nextID = 0
    var sleepers: [Sleeper] = []
    var cancelled: Set<Int> = []
    var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = TestLock(State())

  /// A clock at offset zero.
  package init() {}

  /// The current instant.
  package var now: Instant { state.withLock { $0.now } }
  /// Zero: the clock is exact.
  package var minimumResolution: Duration { .zero }
  /// How many sleepers are waiting now.
  package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Suspends until the clock is advanced to `deadline`.
  package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withLock { state -> Int in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let (resumeNow, cancelledEarly, ready) = state.withLock {
          state -> (Bool, Bool, [CheckedContinuation<Void, Never>]) in
          if state.cancelled.remove(id) != nil { return (false, true, []) }
          if deadline <= state.now { return (true, false, []) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return (false, false, Self.readyWaiters(&state))
        }
        if cancelledEarly {
          continuation.resume(throwing: CancellationError())
        } else if resumeNow {
          continuation.resume()
        }
        for waiter in ready { waiter.resume() }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelled.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock forward and wakes every sleeper whose deadline has come, earliest first.
  /// - Parameter duration: How far to move.
  package func advance(by duration: Duration) {
    let due = state.withLock { state -> [Sleeper] in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
      state.sleepers.removeAll { $0.deadline <= now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Waits until at least `count` sleepers are registered.
  /// - Parameter count: The number of sleepers to wait for.
  package func waitForSleepers(_ count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.sleepers.count >= count { return true }
        state.waiters.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  private static func readyWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
    let count = state.sleepers.count
    let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
    state.waiters.removeAll { $0.count <= count }
    return ready
  }
}
