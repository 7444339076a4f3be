import Foundation
import ServerBeeKit
import ServerBeeModels
import ServerBeeSocketTransport
import Synchronization

/// A second client of a simulator's live stream: the SDK's `LiveFleet` on an API key, over the
/// native transports, recording every step a watcher follows in order (`agent_authority_changed`,
/// `upgrade_progress`, `upgrade_result`) as its events deliver them.
///
/// Tests wait for steps with ``next(_:within:)``: it returns as soon as they have arrived, and the
/// deadline only ends a broken test.
final class LiveStepRecorder: Sendable {
  /// The steps recorded, how many were returned, and the one waiting caller.
  private final class Log: Sendable {
    private struct State {
      var steps: [LiveStreamMessage] = []
      var read = 0
      var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?
    }
    private let state = Mutex(State())

    func record(_ step: LiveStreamMessage) {
      state.withLock { state in
        state.steps.append(step)
        if let waiter = state.waiter, state.steps.count >= waiter.count {
          state.waiter = nil
          waiter.continuation.resume()
        }
      }
    }

    /// Waits until `count` more steps than those returned are in, or ``timeUp()``.
    func wait(for count: Int) async {
      await withCheckedContinuation { continuation in
        state.withLock { state in
          if state.steps.count >= state.read + count {
            continuation.resume()
          } else {
            state.waiter = (state.read + count, continuation)
          }
        }
      }
    }

    /// Ends the wait in progress, if any.
    func timeUp() {
      state.withLock { state in
        state.waiter?.continuation.resume()
        state.waiter = nil
      }
    }

    /// Up to `count` steps after those returned, marked returned.
    func take(_ count: Int) -> [LiveStreamMessage] {
      state.withLock { state in
        let end = min(state.read + count, state.steps.count)
        defer { state.read = end }
        return Array(state.steps[state.read..<end])
      }
    }
  }

  private let fleet: LiveFleet
  private let log = Log()
  private let reader: Task<Void, Never>

  /// Connects, subscribes and waits for the first `full_sync`, so no later step is missed.
  /// - Parameters:
  ///   - server: The simulator's base URL.
  ///   - apiKey: An API key of the simulator.
  /// - Throws: When the key is refused or no `full_sync` arrives.
  init(server: String, apiKey: String) async throws {
    let fleet = try await LiveFleet.watch(
      server: try ServerURL(server), apiKey: try APIKey(apiKey),
      transports: ServerBeeClient.Transports(
        http: SocketHTTPTransport(), webSocket: SocketWebSocketTransport()))
    self.fleet = fleet
    let events = await fleet.stream.events()
    let log = log
    reader = Task {
      for await event in events {
        guard case .message(let message) = event else { continue }
        switch message {
        case .agentAuthorityChanged, .upgradeProgress, .upgradeResult: log.record(message)
        default: continue
        }
      }
    }
    _ = try await fleet.firstSync()
  }

  deinit {
    // A test that ended early (a failed `#require`) stops its stream here.
    reader.cancel()
    let fleet = fleet
    Task { await fleet.stop() }
  }

  /// The next `count` steps after those already returned, waiting up to `seconds` for them;
  /// fewer when the deadline passes first.
  func next(_ count: Int, within seconds: Double = 60) async -> [LiveStreamMessage] {
    let log = log
    let deadline = Task {
      try? await Task.sleep(for: .seconds(seconds))
      if !Task.isCancelled { log.timeUp() }
    }
    await log.wait(for: count)
    deadline.cancel()
    return log.take(count)
  }

  /// Stops the stream and the reader.
  func stop() async {
    await fleet.stop()
    reader.cancel()
  }
}
