import ServerBeeModels

/// Races each provider call against the provider timeout without a task group (a group would
/// wait for a provider that ignores cancellation): the call runs in its own task, and whichever
/// of the answer and the deadline comes first resumes the caller; the call is cancelled at its
/// deadline.
///
/// One sleeper serves every deadline of the relay (a timer task per send, created,
/// scheduled and cancelled, was about a tenth of each send's instructions). The timeout is the
/// same for every call, so deadlines come in the order calls start and a queue keeps them
/// sorted; calls that answered are dropped from its front as new ones arrive, so it holds
/// about the calls still in flight. The sleeper runs while the queue holds a call and waits
/// with the relay clock's `sleep` until the oldest deadline.
final class ProviderCall: Sendable {
  let timeout: Duration
  private let clock: RelayClock
  private let deadlines = Locked(Deadlines())

  private struct Deadlines {
    /// Oldest first, from `head` on; what is before `head` was dropped.
    var queue: [(deadline: ContinuousClock.Instant, race: Race)] = []
    var head = 0
    /// Whether the sleeper runs; it stops when the queue is empty.
    var sleeping = false

    /// Drops answered calls from the front, and the dropped part once it is most of the queue.
    mutating func dropAnswered() {
      while head < queue.count, queue[head].race.isFinished { head += 1 }
      if head == queue.count {
        queue.removeAll(keepingCapacity: true)
        head = 0
      } else if head >= 64, head * 2 >= queue.count {
        queue.removeFirst(head)
        head = 0
      }
    }
  }

  init(timeout: Duration, clock: RelayClock) {
    self.timeout = timeout
    self.clock = clock
  }

  /// The provider's answer, or `nil` when the timeout came first.
  func deliver(_ delivery: RelayDelivery, to provider: any PushProvider) async -> ProviderAnswer? {
    let race = Race()
    return await withCheckedContinuation { continuation in
      race.begin(continuation)
      // Owned by `race`: cancelled at the deadline, so it does not outlive the request by more
      // than its cancellation.
      race.own(Task { race.finish(await provider.deliver(delivery), cancellingWork: false) })
      schedule(race)
    }
  }

  private func schedule(_ race: Race) {
    let startSleeper = deadlines.withLock { state -> Bool in
      state.dropAnswered()
      // Read under the lock, so the queue stays in deadline order.
      state.queue.append((ContinuousClock.now.advanced(by: timeout), race))
      guard !state.sleeping else { return false }
      state.sleeping = true
      return true
    }
    // Holds the relay's calls until each has answered or timed out, then ends.
    if startSleeper { Task { await expireUntilEmpty() } }
  }

  /// Sleeps until the oldest deadline, times out every call past it, and again; ends when no
  /// call is waiting.
  private func expireUntilEmpty() async {
    while true {
      let next = deadlines.withLock { state -> ContinuousClock.Instant? in
        state.dropAnswered()
        guard state.head < state.queue.count else {
          state.sleeping = false
          return nil
        }
        return state.queue[state.head].deadline
      }
      guard let next else { return }
      // A sleep that throws ends the wait, as the timer task of each call used to (`try?`).
      try? await clock.sleep(next - ContinuousClock.now)
      let reached = max(next, ContinuousClock.now)
      let expired = deadlines.withLock { state -> [Race] in
        var expired: [Race] = []
        while state.head < state.queue.count, state.queue[state.head].deadline <= reached {
          expired.append(state.queue[state.head].race)
          state.head += 1
        }
        return expired
      }
      for race in expired { race.finish(nil, cancellingWork: true) }
    }
  }

  /// One call: the caller's continuation, resumed once, and the task doing the call.
  private final class Race: Sendable {
    private struct State {
      var continuation: CheckedContinuation<ProviderAnswer?, Never>?
      var done = false
      var work: Task<Void, Never>?
    }
    private let state = Locked(State())

    var isFinished: Bool { state.withLock { $0.done } }

    func begin(_ continuation: CheckedContinuation<ProviderAnswer?, Never>) {
      state.withLock { $0.continuation = continuation }
    }

    func own(_ work: Task<Void, Never>) {
      let done = state.withLock { state -> Bool in
        if !state.done { state.work = work }
        return state.done
      }
      // Timed out before the task was stored (it may also have answered: cancelling a finished
      // task does nothing).
      if done { work.cancel() }
    }

    /// Resumes the caller with `answer` unless it was resumed before; cancels the call when
    /// asked (at the deadline).
    func finish(_ answer: ProviderAnswer?, cancellingWork: Bool) {
      let (continuation, work) = state.withLock {
        state -> (CheckedContinuation<ProviderAnswer?, Never>?, Task<Void, Never>?) in
        guard !state.done else { return (nil, nil) }
        state.done = true
        defer {
          state.continuation = nil
          state.work = nil
        }
        return (state.continuation, state.work)
      }
      continuation?.resume(returning: answer)
      if cancellingWork { work?.cancel() }
    }
  }
}
