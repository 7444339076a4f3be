import Foundation
import ServerBeeModels

/// Fan-out of live frames to WebSocket connections, one bounded queue per subscriber.
///
/// A subscriber that falls more than ``capacity`` frames behind loses its queue and is marked
/// for a fresh `full_sync` instead (v1 §4.2: the 256-message broadcast buffer).
final class LiveHub: Sendable {
  static let capacity = 256

  /// One connection's queue; its writer thread waits on `condition`.
  final class Subscriber: @unchecked Sendable {
    // Safety: every stored var is only touched while `condition` is locked.
    let condition = NSCondition()
    private var queue: [Data] = []
    private var lagged = false
    private var closed = false

    func push(_ frame: Data) {
      condition.lock()
      defer { condition.unlock() }
      if queue.count >= LiveHub.capacity {
        queue.removeAll()
        lagged = true
      } else {
        queue.append(frame)
      }
      condition.signal()
    }

    func wake() {
      condition.lock()
      condition.signal()
      condition.unlock()
    }

    func close() {
      condition.lock()
      closed = true
      condition.broadcast()
      condition.unlock()
    }

    /// Waits up to `timeout` seconds; returns queued frames, whether a resync is due, and
    /// whether the subscriber was closed.
    func next(timeout: TimeInterval) -> (frames: [Data], resync: Bool, closed: Bool) {
      condition.lock()
      defer { condition.unlock() }
      if queue.isEmpty, !lagged, !closed {
        _ = condition.wait(until: Date().addingTimeInterval(timeout))
      }
      let result = (queue, lagged, closed)
      queue.removeAll()
      lagged = false
      return result
    }
  }

  private let subscribers = Locked<[ObjectIdentifier: Subscriber]>([:])

  func subscribe() -> Subscriber {
    let subscriber = Subscriber()
    subscribers.withLock { $0[ObjectIdentifier(subscriber)] = subscriber }
    return subscriber
  }

  func unsubscribe(_ subscriber: Subscriber) {
    _ = subscribers.withLock { $0.removeValue(forKey: ObjectIdentifier(subscriber)) }
  }

  var count: Int { subscribers.withLock { $0.count } }

  func broadcast(_ frame: Data) {
    for subscriber in subscribers.withLock({ Array($0.values) }) { subscriber.push(frame) }
  }

  func wakeAll() {
    for subscriber in subscribers.withLock({ Array($0.values) }) { subscriber.wake() }
  }

  func closeAll() {
    for subscriber in subscribers.withLock({ Array($0.values) }) { subscriber.close() }
  }
}
