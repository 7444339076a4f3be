import ServerBeeModels

/// A push provider that answers from a script and records the deliveries it was given: for
/// tests, demos and the simulator's push pipeline.
///
/// ```swift
/// let provider = ScriptedPushProvider()
/// provider.script(deviceToken: "a1b2", .unregistered)        // sticky, for one token
/// provider.enqueue(.accepted, .serverError(status: 503))      // one per request, in order
/// let relay = RelayServer(provider: provider)
/// // … a server sends …
/// provider.received().map(\.payloadText)
/// ```
///
/// Which answer a delivery gets, first match wins: the device token's script
/// (`script(deviceToken:_:)`), then the next queued answer (`enqueue(_:)`, consumed), then
/// the ``fallback`` provider when there is one (for example ``LocalDevicePushProvider``), then the
/// default answer (`accepted` unless set with ``setDefault(_:)``).
/// Scripts can delay an answer (longer than a client's timeout, to test timeouts) or hold it
/// until ``release()`` (to keep requests in flight). Held and delayed answers end early when the
/// relay cancels the call (its provider timeout).
///
/// ``received()`` keeps the newest ``maximumReceived`` deliveries (1000 by default) in a ring,
/// about 5 KiB each: memory stays flat however many pass. `serverbee-relay` keeps none unless
/// started with `--capture N`.
public final class ScriptedPushProvider: PushProvider {
  /// The provider for deliveries nothing is scripted for, if any.
  public let fallback: (any PushProvider)?
  /// How many deliveries ``received()`` keeps, newest last; 0 keeps none (``waitUntilReceived(count:)``
  /// still counts every delivery).
  public let maximumReceived: Int
  private let clock: RelayClock
  private let state: Locked<State>

  private struct State {
    var perToken: [String: ScriptedAnswer] = [:]
    var queue: [ScriptedAnswer] = []
    var defaultAnswer: ScriptedAnswer
    var received: CaptureRing<RelayDelivery>
    /// Every delivery so far, kept or not.
    var receivedTotal = 0
    var receivedWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    var held: [Int: CheckedContinuation<Void, Never>] = [:]
    var cancelledHolds: Set<Int> = []
    var nextHold = 0
  }

  /// Creates a scripted provider.
  /// - Parameters:
  ///   - defaultAnswer: The answer when nothing is scripted and there is no fallback;
  ///     `accepted` by default.
  ///   - fallback: A provider for deliveries nothing is scripted for; `nil` by default.
  ///   - clock: The clock for delays; the system clock by default.
  ///   - maximumReceived: How many deliveries ``received()`` keeps (oldest dropped); 1000 by
  ///     default, 0 for none.
  public init(
    defaultAnswer: ScriptedAnswer = ScriptedAnswer(.accepted),
    fallback: (any PushProvider)? = nil, clock: RelayClock = .system,
    maximumReceived: Int = 1000
  ) {
    self.fallback = fallback
    self.clock = clock
    self.maximumReceived = max(0, maximumReceived)
    state = Locked(
      State(
        defaultAnswer: defaultAnswer, received: CaptureRing(capacity: maximumReceived)))
  }

  /// Answers every later delivery to `deviceToken` this way (until ``clearScripts()`` or
  /// ``removeScript(deviceToken:)``).
  /// - Parameters:
  ///   - deviceToken: The lowercase hex token.
  ///   - answer: The answer.
  public func script(deviceToken: String, _ answer: ScriptedAnswer) {
    state.withLock { $0.perToken[deviceToken] = answer }
  }

  /// Answers every later delivery to `deviceToken` with `answer`, at once.
  /// - Parameters:
  ///   - deviceToken: The lowercase hex token.
  ///   - answer: The answer.
  public func script(deviceToken: String, _ answer: ProviderAnswer) {
    script(deviceToken: deviceToken, ScriptedAnswer(answer))
  }

  /// Forgets the script of one device token.
  /// - Parameter deviceToken: The token.
  public func removeScript(deviceToken: String) {
    state.withLock { $0.perToken[deviceToken] = nil }
  }

  /// Queues answers, each used by exactly one later delivery (any token without its own script).
  /// - Parameter answers: The answers, in order.
  public func enqueue(_ answers: [ScriptedAnswer]) {
    state.withLock { $0.queue.append(contentsOf: answers) }
  }

  /// Queues answers given at once, each used by one later delivery.
  /// - Parameter answers: The answers, in order.
  public func enqueue(_ answers: ProviderAnswer...) {
    enqueue(answers.map { ScriptedAnswer($0) })
  }

  /// Queues scripted answers, each used by one later delivery.
  /// - Parameter answers: The answers, in order.
  public func enqueue(_ answers: ScriptedAnswer...) {
    enqueue(Array(answers))
  }

  /// Sets the answer used when nothing is scripted and there is no fallback.
  /// - Parameter answer: The answer.
  public func setDefault(_ answer: ScriptedAnswer) {
    state.withLock { $0.defaultAnswer = answer }
  }

  /// Forgets every per-token script and queued answer, and resets the default to `accepted`.
  public func clearScripts() {
    state.withLock {
      $0.perToken = [:]
      $0.queue = []
      $0.defaultAnswer = ScriptedAnswer(.accepted)
    }
  }

  /// The newest deliveries received, at most ``maximumReceived``, oldest first (including
  /// those answered by the fallback).
  /// - Returns: The deliveries.
  public func received() -> [RelayDelivery] {
    state.withLock { $0.received.elements }
  }

  /// Forgets the recorded deliveries, and the count ``waitUntilReceived(count:)`` waits on.
  public func clearReceived() {
    state.withLock {
      $0.received.removeAll()
      $0.receivedTotal = 0
    }
  }

  /// Waits until at least `count` deliveries have been received in total (kept or not) since
  /// the start or the last ``clearReceived()``.
  /// - Parameter count: The number to wait for.
  public func waitUntilReceived(count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        guard state.receivedTotal < count else { return true }
        state.receivedWaiters.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  /// How many deliveries are currently held.
  public var heldCount: Int { state.withLock { $0.held.count } }

  /// Lets every held delivery answer now.
  public func release() {
    let held = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      defer { state.held = [:] }
      return Array(state.held.values)
    }
    for continuation in held { continuation.resume() }
  }

  /// Records the delivery and answers from the script.
  /// - Parameter delivery: The delivery.
  /// - Returns: The scripted answer, or the fallback's.
  public func deliver(_ delivery: RelayDelivery) async -> ProviderAnswer {
    let (scripted, ready) = state.withLock {
      state -> (ScriptedAnswer?, [CheckedContinuation<Void, Never>]) in
      state.received.append(delivery)
      state.receivedTotal += 1
      let count = state.receivedTotal
      let ready = state.receivedWaiters.filter { $0.count <= count }.map(\.continuation)
      state.receivedWaiters.removeAll { $0.count <= count }
      if let answer = state.perToken[delivery.deviceToken] { return (answer, ready) }
      if !state.queue.isEmpty { return (state.queue.removeFirst(), ready) }
      if fallback != nil { return (nil, ready) }
      return (state.defaultAnswer, ready)
    }
    for continuation in ready { continuation.resume() }
    guard let scripted else {
      return await fallback?.deliver(delivery) ?? .accepted
    }
    if scripted.delay > .zero {
      do {
        try await clock.sleep(scripted.delay)
      } catch {
        return .networkFailure
      }
    }
    if scripted.holdsUntilReleased { await hold() }
    return scripted.answer
  }

  /// Waits for ``release()`` or cancellation.
  private func hold() async {
    let id = state.withLock { state -> Int in
      state.nextHold += 1
      return state.nextHold
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        // The cancellation handler may have run before the continuation existed.
        let cancelled = state.withLock { state -> Bool in
          if state.cancelledHolds.remove(id) != nil { return true }
          state.held[id] = continuation
          return false
        }
        if cancelled { continuation.resume() }
      }
    } onCancel: {
      let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
        if let continuation = state.held.removeValue(forKey: id) { return continuation }
        state.cancelledHolds.insert(id)
        return nil
      }
      continuation?.resume()
    }
  }
}
