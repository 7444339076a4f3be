import Foundation
import Testing

@testable import ServerBeeSimulator

/// The per-subscriber queue behind `/api/ws/servers`.
@Suite(.timeLimit(.minutes(5))) struct LiveHubTests {
  /// Waits (without a clock) until `subscriber` has parked in `next(timeout:)`.
  private func parked(_ subscriber: LiveHub.Subscriber) async {
    while !subscriber.isWaiting { await Task.yield() }
  }

  @Test func aWaitEndedByAFrameLeavesNoWakeForTheNextWait() async {
    // The cancelled timer of a wait woke the subscriber anyway, so the next wait
    // returned at once and started another timer: every idle session spun.
    let hub = LiveHub()
    let subscriber = hub.subscribe()
    for round in 0..<3 {
      let waiting = Task { await subscriber.next(timeout: 60) }
      await parked(subscriber)
      subscriber.push(Data("frame \(round)".utf8))
      let result = await waiting.value
      #expect(result.frames == [Data("frame \(round)".utf8)])
      #expect(!result.resync && !result.closed)
      #expect(!subscriber.isReady)
    }
  }

  @Test func aWaitEndsAtItsTimeoutWithNothing() async {
    let subscriber = LiveHub().subscribe()
    let result = await subscriber.next(timeout: 0.01)
    #expect(result.frames.isEmpty && !result.resync && !result.closed)
    #expect(!subscriber.isReady)
  }

  @Test func aLaggingSubscriberIsToldToResync() async {
    let hub = LiveHub()
    let subscriber = hub.subscribe()
    for index in 0...LiveHub.capacity { hub.broadcast(Data("\(index)".utf8)) }
    let result = await subscriber.next(timeout: 60)
    #expect(result.resync && result.frames.isEmpty)
  }
}
