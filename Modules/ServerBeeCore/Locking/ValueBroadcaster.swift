#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A current value plus its changes, fanned out to any number of subscribers: the one mechanism
/// behind every "current value + changes" stream of the SDK (session states, identities).
///
/// Subscribing is one atomic step (yield the current value, then register) and synchronous, so
/// it can back a `nonisolated` API; `onTermination` removes the subscriber at once without
/// starting a task. A subscriber may watch a projection of the value; it is told only when the
/// projection changes.
///
/// ```swift
/// let states = ValueBroadcaster(SessionState.restoring)
/// let identities = states.subscribe { $0.identity }  // AsyncStream<SessionIdentity?>
/// states.publish(.signedOut)
/// ```
package final class ValueBroadcaster<Value: Sendable & Equatable>: @unchecked Sendable {
  // Safe to share: `current` and `subscribers` are only touched with `lock` held.
  private let lock = PlatformLock()
  private var current: Value
  private var subscribers: [UUID: @Sendable (Value) -> Void] = [:]
  private var finishers: [UUID: @Sendable () -> Void] = [:]

  /// Creates a broadcaster holding `initial`.
  package init(_ initial: Value) { current = initial }

  /// The current value.
  package var value: Value { lock.withLock { current } }

  /// How many subscribers are registered.
  package var subscriberCount: Int { lock.withLock { subscribers.count } }

  /// A new stream of values, starting with the current one (newest-wins buffering: a slow
  /// subscriber gets the latest value, not every step).
  package func subscribe() -> AsyncStream<Value> { subscribe { $0 } }

  /// A new stream of `projection` of the value, starting with the current one; a value whose
  /// projection did not change is not sent.
  package func subscribe<Projection: Sendable & Equatable>(
    _ projection: @escaping @Sendable (Value) -> Projection
  ) -> AsyncStream<Projection> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Projection.self, bufferingPolicy: .bufferingNewest(8))
    let id = UUID()
    continuation.onTermination = { [weak self] _ in self?.remove(id) }
    lock.withLock {
      let first = projection(current)
      continuation.yield(first)
      let last = Locked(first)
      subscribers[id] = { value in
        let next = projection(value)
        let changed = last.withLock { previous -> Bool in
          defer { previous = next }
          return previous != next
        }
        if changed { continuation.yield(next) }
      }
      finishers[id] = { continuation.finish() }
    }
    return stream
  }

  private func remove(_ id: UUID) {
    lock.withLock {
      subscribers[id] = nil
      finishers[id] = nil
    }
  }

  /// Stores `value` and sends it to every subscriber, unless it equals the current value.
  package func publish(_ value: Value) {
    lock.withLock {
      guard value != current else { return }
      current = value
      for subscriber in subscribers.values { subscriber(value) }
    }
  }

  /// Ends every subscriber's stream.
  package func finishAll() {
    let all = lock.withLock { () -> [@Sendable () -> Void] in
      let all = Array(finishers.values)
      subscribers = [:]
      finishers = [:]
      return all
    }
    for finish in all { finish() }
  }
}
