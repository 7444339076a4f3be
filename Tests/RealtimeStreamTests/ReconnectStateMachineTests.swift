import Testing

@testable import RealtimeStream

@Suite struct ReconnectStateMachineTests {
  private func machine(random: Double = 0.5) -> ReconnectStateMachine {
    ReconnectStateMachine(random: { random })
  }

  /// Fails every attempt with a network error and records the retry delays.
  private func delays(count: Int, random: Double) -> [Double] {
    var sut = machine(random: random)
    var result: [Double] = []
    var actions = sut.handle(.start)
    for _ in 0..<count {
      guard case .connect(let id) = actions.first else { return result }
      actions = sut.handle(.failed(connection: id, .other))
      guard case .scheduleRetry(let seconds) = actions.first else { return result }
      result.append(seconds)
      actions = sut.handle(.retryTimerFired)
    }
    return result
  }

  @Test func backoffDoublesFromOneSecondToAThirtySecondCap() {
    #expect(delays(count: 8, random: 0.5) == [1, 2, 4, 8, 16, 30, 30, 30])
  }

  @Test(arguments: [0.0, 0.25, 0.999_999])
  func jitterStaysWithinTwentyPercent(random: Double) {
    for (delay, base) in zip(delays(count: 7, random: random), [1.0, 2, 4, 8, 16, 30, 30]) {
      #expect(delay >= base * 0.8 - 1e-9)
      #expect(delay <= base * 1.2 + 1e-9)
    }
    #expect(delays(count: 1, random: 0)[0] == 0.8)
  }

  @Test func backoffResetsOnlyAfterTheFirstFrameOfAConnection() {
    var sut = machine()
    _ = sut.handle(.start)
    _ = sut.handle(.failed(connection: 1, .other))
    _ = sut.handle(.retryTimerFired)
    _ = sut.handle(.failed(connection: 2, .other))
    #expect(sut.failures == 2)
    _ = sut.handle(.retryTimerFired)
    _ = sut.handle(.opened(connection: 3))
    #expect(sut.failures == 2, "an upgrade alone does not reset the backoff")
    _ = sut.handle(.frameReceived(connection: 3))
    #expect(sut.failures == 0)
    #expect(sut.handle(.failed(connection: 3, .other)) == [.scheduleRetry(seconds: 1)])
  }

  @Test func unauthorizedCloseRefreshesTheTokenAndReconnectsAtOnce() {
    var sut = machine()
    _ = sut.handle(.start)
    _ = sut.handle(.opened(connection: 1))
    _ = sut.handle(.frameReceived(connection: 1))
    #expect(sut.handle(.failed(connection: 1, .unauthorized)) == [.refreshToken])
    #expect(sut.handle(.tokenRefreshed(succeeded: true)) == [.connect(id: 2)])
  }

  @Test func aSecondAuthFailureInTheSameAttemptBacksOff() {
    var sut = machine()
    _ = sut.handle(.start)
    #expect(sut.handle(.failed(connection: 1, .unauthorized)) == [.refreshToken])
    _ = sut.handle(.tokenRefreshed(succeeded: true))
    #expect(sut.handle(.failed(connection: 2, .unauthorized)) == [.scheduleRetry(seconds: 1)])
    #expect(sut.handle(.retryTimerFired) == [.connect(id: 3)])
    #expect(sut.handle(.failed(connection: 3, .unauthorized)) == [.refreshToken])
  }

  @Test func aFailedRefreshBacksOff() {
    var sut = machine()
    _ = sut.handle(.start)
    _ = sut.handle(.failed(connection: 1, .unauthorized))
    #expect(sut.handle(.tokenRefreshed(succeeded: false)) == [.scheduleRetry(seconds: 1)])
  }

  @Test func eventsFromStaleConnectionsAreIgnored() {
    var sut = machine()
    _ = sut.handle(.start)
    _ = sut.handle(.failed(connection: 1, .other))
    _ = sut.handle(.retryTimerFired)
    #expect(sut.state == .connecting(id: 2))
    #expect(sut.handle(.opened(connection: 1)).isEmpty)
    #expect(sut.handle(.failed(connection: 1, .other)).isEmpty)
    #expect(sut.state == .connecting(id: 2))
    _ = sut.handle(.opened(connection: 2))
    #expect(sut.handle(.frameReceived(connection: 1)).isEmpty)
    #expect(sut.state == .connected(id: 2, sawFrame: false))
  }

  @Test func stopShutsDownOnceAndIgnoresEverythingAfter() {
    var sut = machine()
    _ = sut.handle(.start)
    _ = sut.handle(.opened(connection: 1))
    #expect(sut.handle(.stop) == [.shutDown])
    #expect(sut.handle(.failed(connection: 1, .other)).isEmpty)
    #expect(sut.handle(.retryTimerFired).isEmpty)
    #expect(sut.handle(.start).isEmpty)
    #expect(sut.state == .stopped)
  }
}
