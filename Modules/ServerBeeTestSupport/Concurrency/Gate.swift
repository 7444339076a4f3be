/// A one-shot gate: tasks wait until the test opens it.
///
/// ```swift
/// let gate = Gate()
/// await http.expect(.post, "/api/x") { _ in await gate.wait(); return .json(200, "…") }
/// // … start callers, then …
/// await gate.open()
/// ```
public actor Gate {
  private var isOpen = false
  private var waiters: [CheckedContinuation<Void, Never>] = []
  private var arrivals = 0
  private var arrivalWaiters: [(Int, CheckedContinuation<Void, Never>)] = []

  /// Creates a closed gate.
  public init() {}

  /// Suspends until the gate is open.
  public func wait() async {
    arrivals += 1
    resumeArrivalWaiters()
    if isOpen { return }
    await withCheckedContinuation { waiters.append($0) }
  }

  /// Suspends until at least `count` tasks have called ``wait()``.
  /// - Parameter count: The number of arrivals to wait for.
  public func waitForArrivals(_ count: Int) async {
    if arrivals >= count { return }
    await withCheckedContinuation { arrivalWaiters.append((count, $0)) }
  }

  /// Opens the gate and lets every waiting task continue.
  public func open() {
    isOpen = true
    let pending = waiters
    waiters = []
    for waiter in pending { waiter.resume() }
  }

  private func resumeArrivalWaiters() {
    var remaining: [(Int, CheckedContinuation<Void, Never>)] = []
    for (count, continuation) in arrivalWaiters {
      if arrivals >= count {
        continuation.resume()
      } else {
        remaining.append((count, continuation))
      }
    }
    arrivalWaiters = remaining
  }
}
