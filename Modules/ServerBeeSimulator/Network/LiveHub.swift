import Foundation
import ServerBeeModels

/// Fan-out of live frames to WebSocket connections, one bounded queue per subscriber.
///
/// A subscriber that falls more than ``capacity`` frames behind loses its queue and is marked
/// for a fresh `full_sync` instead (Protocol/LiveStream.md §2: the 256-message broadcast buffer).
final class LiveHub: Sendable {
  static let capacity = 256

  /// One connection's queue; its session awaits ``next(timeout:)`` (no thread is blocked).
  final class Subscriber: Sendable {
    private struct State {
      var queue: [Data] = []
      var lagged = false
      var closed = false
      var signalled = false
      var waiter: CheckedContinuation<Void, Never>?

      var isReady: Bool { !queue.isEmpty || lagged || closed || signalled }

      /// Marks a wake-up and hands back the waiter to resume outside the lock.
      mutating func signal() -> CheckedContinuation<Void, Never>? {
        signalled = true
        defer { waiter = nil }
        return waiter
      }
    }

    private let state = Locked(State())

    func push(_ frame: Data) {
      let waiter = state.withLock { state in
        if state.queue.count >= LiveHub.capacity {
          state.queue.removeAll()
          state.lagged = true
        } else {
          state.queue.append(frame)
        }
        return state.signal()
      }
      waiter?.resume()
    }

    func wake() { state.withLock { $0.signal() }?.resume() }

    /// Whether ``next(timeout:)`` would return at once (for tests).
    var isReady: Bool { state.withLock { $0.isReady } }

    /// Whether a ``next(timeout:)`` is waiting (for tests).
    var isWaiting: Bool { state.withLock { $0.waiter != nil } }

    func close() {
      let waiter = state.withLock { state in
        state.closed = true
        return state.signal()
      }
      waiter?.resume()
    }

    /// Waits up to `timeout` seconds; returns queued frames, whether a resync is due, and
    /// whether the subscriber was closed.
    func next(timeout: TimeInterval) async -> (frames: [Data], resync: Bool, closed: Bool) {
      if timeout > 0, !state.withLock({ $0.isReady }) {
        // Only a timer that ran out may wake: a cancelled one that woke anyway made
        // the next wait return at once and start another timer, so every session spun, each
        // turn leaving a task and a dispatch timer alive for `timeout` (about 2 MiB of heap
        // per idle client).
        let timer = Task { [weak self] in
          do {
            try await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
          } catch {
            return
          }
          self?.wake()
        }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
          let ready = state.withLock { state -> Bool in
            if state.isReady { return true }
            state.waiter = waiter
            return false
          }
          if ready { waiter.resume() }
        }
        timer.cancel()
        // Ended before returning, so no wake from this wait can reach the next one.
        await timer.value
      }
      return state.withLock { state in
        defer {
          state.queue.removeAll()
          state.lagged = false
          state.signalled = false
        }
        return (state.queue, state.lagged, state.closed)
      }
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
