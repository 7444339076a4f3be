/// A single-consumer `AsyncThrowingStream` whose producer waits for room instead of buffering
/// without bound: at most `capacity` elements wait for the consumer, and
/// ``send(_:)`` suspends until the consumer takes one. Chained down to the WebSocket, whose
/// reader stops reading the socket when its own bounded inbox is full, a slow consumer slows the
/// peer through TCP instead of growing memory, and no element is dropped.
///
/// The stream is the `unfolding` kind, so it keeps the public `AsyncThrowingStream` type. Its
/// closure holds a ``ConsumerLifetime``: when the consumer's task is cancelled or the stream is
/// released (the consumer broke out of its loop), the closure given to
/// ``setOnTermination(_:)`` runs once, as an `AsyncStream` continuation's `onTermination` would,
/// and every waiting ``send(_:)`` returns `false`.
package final class BackpressuredStream<Element: Sendable>: Sendable {
  private enum End {
    case finished
    case failed(any Error)
    case delivered
  }

  private struct Producer {
    var id: Int
    var element: Element
    var waiter: CheckedContinuation<Bool, Never>
  }

  private struct State {
    var buffer: [Element] = []
    var producers: [Producer] = []
    var nextProducer = 0
    var consumer: CheckedContinuation<Element?, any Error>?
    var end: End?
    var consumerGone = false
    var onTermination: (@Sendable () -> Void)?
  }

  /// The elements that may wait for the consumer before ``send(_:)`` waits.
  package let capacity: Int
  private let state = Locked(State())

  /// Creates a channel.
  /// - Parameter capacity: Elements buffered before the producer waits; at least 1.
  package init(capacity: Int) { self.capacity = max(1, capacity) }

  /// The consumer's stream; make it once.
  package func makeStream() -> AsyncThrowingStream<Element, any Error> {
    let lifetime = ConsumerLifetime { [self] in consumerStopped() }
    return AsyncThrowingStream(unfolding: { [self, lifetime] in
      _ = lifetime  // held by the closure, released with it
      return try await next()
    })
  }

  /// How many elements wait for the consumer now (at most ``capacity``; for tests).
  package var bufferedCount: Int { state.withLock { $0.buffer.count } }

  /// Runs once when the consumer stops (cancelled or released); at once if it already has.
  /// Typically cancels the producing task.
  package func setOnTermination(_ body: @escaping @Sendable () -> Void) {
    let gone = state.withLock { state -> Bool in
      guard !state.consumerGone else { return true }
      state.onTermination = body
      return false
    }
    if gone { body() }
  }

  // MARK: - Producer

  /// Hands `element` to the consumer, waiting while `capacity` elements are unread.
  /// - Returns: `false` when the element was not taken: the consumer has stopped, the stream
  ///   was finished, or the producing task was cancelled while it waited. Stop producing then.
  package func send(_ element: Element) async -> Bool {
    let id = state.withLock { state -> Int in
      state.nextProducer += 1
      return state.nextProducer
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
        enqueue(Producer(id: id, element: element, waiter: waiter))
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
        guard let index = state.producers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.producers.remove(at: index).waiter
      }
      waiter?.resume(returning: false)
    }
  }

  private enum Enqueued {
    case refused
    case handed(CheckedContinuation<Element?, any Error>)
    case buffered
    case waiting
  }

  private func enqueue(_ producer: Producer) {
    let outcome = state.withLock { state -> Enqueued in
      guard !state.consumerGone, state.end == nil else { return .refused }
      if let consumer = state.consumer {
        state.consumer = nil
        return .handed(consumer)
      }
      if state.buffer.count < capacity && state.producers.isEmpty {
        state.buffer.append(producer.element)
        return .buffered
      }
      // The cancellation flag is set before the handler runs, so a handler that ran before
      // this lock found nothing to remove: do not wait then.
      if Task.isCancelled { return .refused }
      state.producers.append(producer)
      return .waiting
    }
    switch outcome {
    case .refused: producer.waiter.resume(returning: false)
    case .handed(let consumer):
      consumer.resume(returning: producer.element)
      producer.waiter.resume(returning: true)
    case .buffered: producer.waiter.resume(returning: true)
    case .waiting: break
    }
  }

  /// Ends the stream after the elements already sent: normally, or with `error`. Producers
  /// still waiting get `false`. The first call wins.
  package func finish(throwing error: (any Error)? = nil) {
    let (consumer, producers) = state.withLock {
      state -> (CheckedContinuation<Element?, any Error>?, [Producer]) in
      guard state.end == nil else { return (nil, []) }
      state.end = error.map { .failed($0) } ?? .finished
      let producers = state.producers
      state.producers = []
      guard let consumer = state.consumer else { return (nil, producers) }
      state.consumer = nil
      state.end = .delivered
      return (consumer, producers)
    }
    for producer in producers { producer.waiter.resume(returning: false) }
    if let error {
      consumer?.resume(throwing: error)
    } else {
      consumer?.resume(returning: nil)
    }
  }

  // MARK: - Consumer

  private func next() async throws -> Element? {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (consumer: CheckedContinuation<Element?, any Error>) in
        take(consumer)
      }
    } onCancel: {
      consumerStopped()
    }
  }

  private enum Taken {
    case element(Element, room: CheckedContinuation<Bool, Never>?)
    case end
    case failure(any Error)
    case waiting
  }

  private func take(_ consumer: CheckedContinuation<Element?, any Error>) {
    let taken = state.withLock { state -> Taken in
      if state.consumerGone || Task.isCancelled { return .end }
      if !state.buffer.isEmpty {
        let element = state.buffer.removeFirst()
        // The oldest waiting producer's element takes the freed place, in order.
        guard !state.producers.isEmpty else { return .element(element, room: nil) }
        let producer = state.producers.removeFirst()
        state.buffer.append(producer.element)
        return .element(element, room: producer.waiter)
      }
      switch state.end {
      case .failed(let error)?:
        state.end = .delivered
        return .failure(error)
      case .finished?, .delivered?:
        state.end = .delivered
        return .end
      case nil:
        guard state.consumer == nil else { return .end }  // one consumer
        state.consumer = consumer
        return .waiting
      }
    }
    switch taken {
    case .element(let element, let room):
      room?.resume(returning: true)
      consumer.resume(returning: element)
    case .end: consumer.resume(returning: nil)
    case .failure(let error): consumer.resume(throwing: error)
    case .waiting: break
    }
  }

  private func consumerStopped() {
    let (consumer, producers, onTermination) = state.withLock {
      state -> (CheckedContinuation<Element?, any Error>?, [Producer], (@Sendable () -> Void)?) in
      guard !state.consumerGone else { return (nil, [], nil) }
      state.consumerGone = true
      state.buffer = []
      let producers = state.producers
      state.producers = []
      let consumer = state.consumer
      state.consumer = nil
      let onTermination = state.onTermination
      state.onTermination = nil
      return (consumer, producers, onTermination)
    }
    consumer?.resume(returning: nil)
    for producer in producers { producer.waiter.resume(returning: false) }
    onTermination?()
  }
}

/// Runs its closure when released: the `unfolding` closure of a ``BackpressuredStream`` holds
/// it, so releasing the stream (or the stream dropping its closure at the end) says the
/// consumer has stopped.
package final class ConsumerLifetime: Sendable {
  private let onRelease: @Sendable () -> Void

  package init(_ onRelease: @escaping @Sendable () -> Void) { self.onRelease = onRelease }

  deinit { onRelease() }
}
