import ServerBeeCore
import Testing

/// The one "current value + changes" mechanism: replay, projections, unsubscribe, finish.
@Suite(.timeLimit(.minutes(5))) struct ValueBroadcasterTests {
  @Test func aSubscriberGetsTheCurrentValueFirstThenChanges() async {
    let values = ValueBroadcaster(1)
    var stream = values.subscribe().makeAsyncIterator()
    values.publish(1)  // unchanged: not sent
    values.publish(2)
    #expect(await stream.next() == 1)
    #expect(await stream.next() == 2)
  }

  @Test func aProjectionIsSentOnlyWhenItChanges() async {
    let values = ValueBroadcaster(10)
    var parity = values.subscribe { $0 % 2 }.makeAsyncIterator()
    values.publish(12)  // still even
    values.publish(13)
    values.finishAll()
    #expect(await parity.next() == 0)
    #expect(await parity.next() == 1)
    #expect(await parity.next() == nil)
  }

  @Test func endingAStreamUnsubscribesAtOnce() async {
    let values = ValueBroadcaster("a")
    do {
      let stream = values.subscribe()
      #expect(values.subscriberCount == 1)
      _ = stream
    }
    #expect(values.subscriberCount == 0)
  }
}
