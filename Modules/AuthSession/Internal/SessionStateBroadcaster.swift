import Foundation

/// Fans the session state out to any number of subscribers.
///
/// A class with a lock rather than actor state so that subscribing (yield the current value, then
/// register) is one atomic step, and so that `onTermination`, which is synchronous, can remove the
/// subscriber at once without spawning a task.
final class SessionStateBroadcaster: @unchecked Sendable {
  // Safe to share: `current` and `subscribers` are only touched with `lock` held.
  private let lock = NSLock()
  private var current: SessionState
  private var subscribers: [UUID: AsyncStream<SessionState>.Continuation] = [:]

  init(_ initial: SessionState) { current = initial }

  var value: SessionState { lock.withLock { current } }

  var subscriberCount: Int { lock.withLock { subscribers.count } }

  func subscribe() -> AsyncStream<SessionState> {
    // Newest-wins buffering: a slow subscriber needs the latest state, not every step.
    let (stream, continuation) = AsyncStream.makeStream(
      of: SessionState.self, bufferingPolicy: .bufferingNewest(8))
    let id = UUID()
    continuation.onTermination = { [weak self] _ in self?.remove(id) }
    lock.withLock {
      continuation.yield(current)
      subscribers[id] = continuation
    }
    return stream
  }

  private func remove(_ id: UUID) {
    lock.withLock { _ = subscribers.removeValue(forKey: id) }
  }

  func publish(_ state: SessionState) {
    lock.withLock {
      guard state != current else { return }
      current = state
      for continuation in subscribers.values { continuation.yield(state) }
    }
  }

  func finishAll() {
    let all = lock.withLock { () -> [AsyncStream<SessionState>.Continuation] in
      let all = Array(subscribers.values)
      subscribers = [:]
      return all
    }
    for continuation in all { continuation.finish() }
  }
}
