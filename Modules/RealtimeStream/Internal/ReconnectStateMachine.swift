/// The connection lifecycle of the live stream as a pure state machine.
///
/// The owning actor feeds it events (a connection opened, a frame arrived, the socket closed, a
/// timer fired, a token was refreshed) and performs the actions it returns. Every connection
/// attempt gets a new id; events carrying an older id are ignored, so a late close or frame from
/// a replaced socket can never tear down or reset the current one.
///
/// Rules (Protocol/LiveStream.md §2 and the iOS client): reconnect after any close or failure with
/// exponential backoff — 1 s doubling to 30 s, ±20 % jitter — reset once a connection delivers its
/// first frame; close code 4001 or an HTTP 401 at the upgrade asks for a fresh token and reconnects
/// at once, but only once per attempt (a second auth failure backs off like any other failure);
/// `stop` ends everything.
struct ReconnectStateMachine {
  enum Failure: Equatable {
    /// HTTP 401 at the upgrade, or close 4001 `token expired`.
    case unauthorized
    /// Anything else: network, TLS, protocol error, other close codes.
    case other
  }

  enum Event: Equatable {
    case start
    case opened(connection: Int)
    case frameReceived(connection: Int)
    case failed(connection: Int, Failure)
    case tokenRefreshed(succeeded: Bool)
    case retryTimerFired
    case stop
  }

  enum Action: Equatable {
    /// Open connection number `id` (with the current token).
    case connect(id: Int)
    /// Ask the token provider for a fresh token, then report `.tokenRefreshed`.
    case refreshToken
    /// Report `.retryTimerFired` after this many seconds.
    case scheduleRetry(seconds: Double)
    /// Close the current connection, if any, and cancel any timer or refresh.
    case shutDown
  }

  enum State: Equatable {
    case idle
    case connecting(id: Int)
    case connected(id: Int, sawFrame: Bool)
    case refreshingToken
    case waitingToRetry
    case stopped
  }

  struct Backoff: Equatable {
    var initial: Double = 1
    var maximum: Double = 30
    var jitter: Double = 0.2
  }

  private(set) var state: State = .idle
  /// Consecutive failed attempts since the last connection that delivered a frame.
  private(set) var failures = 0
  private var nextID = 0
  private var refreshedForThisAttempt = false
  let backoff: Backoff
  /// Uniform in `0..<1`; injected so tests choose the jitter.
  private let random: () -> Double

  init(backoff: Backoff = Backoff(), random: @escaping () -> Double) {
    self.backoff = backoff
    self.random = random
  }

  /// The delay before retry number `failures` (1-based), jitter included.
  func delay(afterFailures failures: Int) -> Double {
    let exponent = min(max(failures - 1, 0), 30)
    let base = min(backoff.maximum, backoff.initial * Double(1 << exponent))
    let factor = 1 + backoff.jitter * (2 * random() - 1)
    return base * factor
  }

  mutating func handle(_ event: Event) -> [Action] {
    switch (state, event) {
    case (.stopped, _):
      return []
    case (_, .stop):
      state = .stopped
      return [.shutDown]
    case (.idle, .start):
      return connect()
    case (.connecting(let id), .opened(let connection)) where id == connection:
      state = .connected(id: id, sawFrame: false)
      return []
    case (.connected(let id, false), .frameReceived(let connection)) where id == connection:
      state = .connected(id: id, sawFrame: true)
      failures = 0
      refreshedForThisAttempt = false
      return []
    case (.connecting(let id), .failed(let connection, let failure)) where id == connection,
      (.connected(let id, _), .failed(let connection, let failure)) where id == connection:
      if failure == .unauthorized && !refreshedForThisAttempt {
        refreshedForThisAttempt = true
        state = .refreshingToken
        return [.refreshToken]
      }
      return scheduleRetry()
    case (.refreshingToken, .tokenRefreshed(let succeeded)):
      return succeeded ? connect() : scheduleRetry()
    case (.waitingToRetry, .retryTimerFired):
      refreshedForThisAttempt = false
      return connect()
    default:
      // Stale connection ids, duplicate frames, timers that lost a race: nothing to do.
      return []
    }
  }

  private mutating func connect() -> [Action] {
    nextID += 1
    state = .connecting(id: nextID)
    return [.connect(id: nextID)]
  }

  private mutating func scheduleRetry() -> [Action] {
    failures += 1
    state = .waitingToRetry
    return [.scheduleRetry(seconds: delay(afterFailures: failures))]
  }
}
