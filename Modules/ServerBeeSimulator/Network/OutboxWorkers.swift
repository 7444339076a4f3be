import Foundation
import ServerBeeModels
import ServerBeeSocketTransport
import ServerBeeTransport

/// A wake-up for the outbox workers: admission signals it so a new job is sent at once instead
/// of at the next 250 ms poll.
final class OutboxSignal: Sendable {
  private let condition = NSCondition()
  private let pending = Locked(false)

  /// Wakes one waiting worker (waking every worker for each admitted job made the
  /// others claim nothing, a transaction and a scan of the leased jobs each). A worker that
  /// sent something looks again at once, so a burst still reaches every worker.
  func signal() {
    pending.withLock { $0 = true }
    condition.lock()
    condition.signal()
    condition.unlock()
  }

  /// Wakes every waiting worker (to stop).
  func wakeAll() {
    pending.withLock { $0 = true }
    condition.lock()
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until signalled or `seconds` pass; consumes the signal.
  func wait(seconds: TimeInterval) {
    condition.lock()
    if !pending.withLock({ $0 }) {
      _ = condition.wait(until: Date().addingTimeInterval(seconds))
    }
    condition.unlock()
    pending.withLock { $0 = false }
  }
}

/// Sends outbox attempts to the relay over real HTTP (`POST {relay}/v1/send`).
struct RelayLink: Sendable {
  let transport: any HTTPTransport

  /// `{relay}/v1/send`, or `nil` when that is no URL.
  private static func sendURL(_ relayURL: String) -> URL? {
    var base = relayURL
    while base.hasSuffix("/") { base.removeLast() }
    return URL(string: base + "/v1/send")
  }

  private static func request(_ attempt: RelayAttempt, to url: URL) -> HTTPRequest {
    HTTPRequest(
      method: .post, url: url, headers: ["Content-Type": "application/json"], body: attempt.body)
  }

  /// One attempt; any transport failure (refused, lost, the relay timeout) is `.failure`.
  func send(_ attempt: RelayAttempt, relayURL: String) async -> RelayAnswer {
    guard let url = Self.sendURL(relayURL) else { return .failure }
    let request = Self.request(attempt, to: url)
    do {
      let response = try await transport.send(request)
      return .response(status: response.status, body: response.body)
    } catch {
      return .failure
    }
  }

  /// ``send(_:relayURL:)`` from a thread that may block (a worker or a connection thread, never
  /// the cooperative pool): the request itself runs as a task; this thread waits for it.
  func sendBlocking(_ attempt: RelayAttempt, relayURL: String) -> RelayAnswer {
    sendBlocking([attempt], relayURL: relayURL)[0]
  }

  /// Sends `attempts` at once, one task each, from a thread that may block; the answers in
  /// their order.
  ///
  /// With the socket transport (the simulator's own), the attempts are sent one after another on
  /// this thread, over the transport's kept connections: no task, no thread and no wake pipe
  /// per attempt. A task and a thread per attempt, up to 8 at once from each of 4 workers,
  /// cost a thread start, a pipe and several thread switches per push, and opened more
  /// connections than the transport keeps (4 per origin), so most pushes paid a new TCP
  /// connection and a new relay connection thread. Any other transport (tests inject their
  /// own) is used as before, one task each.
  func sendBlocking(_ attempts: [RelayAttempt], relayURL: String) -> [RelayAnswer] {
    if let socket = transport as? SocketHTTPTransport {
      guard let url = Self.sendURL(relayURL), let wake = try? WakePipe() else {
        return attempts.map { _ in .failure }
      }
      return attempts.map { attempt in
        do {
          let response = try socket.sendBlocking(Self.request(attempt, to: url), wake: wake)
          return .response(status: response.status, body: response.body)
        } catch {
          return .failure
        }
      }
    }
    let results = Locked([RelayAnswer](repeating: .failure, count: attempts.count))
    let done = DispatchSemaphore(value: 0)
    Task {
      await withTaskGroup(of: Void.self) { group in
        for (index, attempt) in attempts.enumerated() {
          group.addTask {
            let answer = await send(attempt, relayURL: relayURL)
            results.withLock { $0[index] = answer }
          }
        }
      }
      done.signal()
    }
    done.wait()
    return results.withLock { $0 }
  }
}

/// The outbox workers (Protocol/Push.md §5): `count` threads, each polling every 250 ms (or at once
/// when a job is admitted), leasing one due job at a time, sending it and recording the answer.
///
/// Threads, not tasks: every step holds the SQLite lock or waits for the relay, which must not
/// happen on Swift's cooperative pool.
final class OutboxWorkers: Sendable {
  private let stopped = Locked(false)
  private let signal: OutboxSignal
  private let finished = DispatchGroup()

  init(core: SimulatorCore, count: Int, pollInterval: TimeInterval = 0.25) {
    signal = core.outboxSignal
    for index in 0..<max(count, 0) {
      finished.enter()
      let thread = Thread { [stopped, signal, finished] in
        defer { finished.leave() }
        while !stopped.withLock({ $0 }) {
          let more = (try? core.runOutboxStepBlocking()) ?? false
          if !more { signal.wait(seconds: pollInterval) }
        }
      }
      thread.name = "serverbee-simulator-outbox-\(index + 1)"
      thread.start()
    }
  }

  /// Stops every worker after its current attempt and waits for them (at most `timeout`).
  func stop(timeout: TimeInterval = 20) {
    stopped.withLock { $0 = true }
    signal.wakeAll()
    _ = finished.wait(timeout: .now() + timeout)
  }
}

extension SimulatorCore {
  /// Due jobs one worker claims in one transaction and sends together (one claim
  /// per job spent a transaction, a query and a relay round trip at a time on each).
  static let outboxClaimBatch = 8

  /// Claims up to ``outboxClaimBatch`` due jobs and sends them at once from a blocking thread;
  /// returns whether more may be due (the claim was full).
  ///
  /// A claim that was not full took every job due at the time, so the worker waits for the
  /// next admission's signal (or the poll) instead of claiming again at once: that second
  /// claim found nothing nearly every time and cost a transaction and two queries (about
  /// 0.1 M instructions a push when pushes come one at a time). A job admitted while the
  /// worker was sending signals it, and the wait returns at once for a pending signal.
  func runOutboxStepBlocking() throws -> Bool {
    let (attempts, full) = try claimDueJobs(limit: Self.outboxClaimBatch)
    guard !attempts.isEmpty else { return full }
    let answers =
      usableRelayURL.map { relayLink.sendBlocking(attempts, relayURL: $0) }
      ?? attempts.map { _ in .failure }
    try record(zip(attempts, answers))
    return full
  }

  /// Runs every due job once, in order, awaiting the relay for each (the step-by-step control
  /// for tests). Returns the attempts made with their recorded outcome.
  func runOutboxPass() async throws -> [OutboxRow] {
    let attempts = try db.serial { try claimDueAttempts(limit: 10_000) }
    var results: [OutboxRow] = []
    for attempt in attempts {
      let answer: RelayAnswer
      if let relay = usableRelayURL {
        answer = await relayLink.send(attempt, relayURL: relay)
      } else {
        answer = .failure
      }
      results += try recordAndRead(attempt, answer)
    }
    return results
  }

  /// ``runOutboxPass()`` from a connection thread (the control route over the network).
  func runOutboxPassBlocking() throws -> [OutboxRow] {
    var results: [OutboxRow] = []
    for attempt in try claimDueAttempts(limit: 10_000) {
      let answer =
        usableRelayURL.map { relayLink.sendBlocking(attempt, relayURL: $0) } ?? .failure
      results += try recordAndRead(attempt, answer)
    }
    return results
  }

  /// Records an answer and reads the job back as stored (for the pass's report).
  private func recordAndRead(_ attempt: RelayAttempt, _ answer: RelayAnswer) throws
    -> [OutboxRow]
  {
    try record(attempt, answer)
    let row = try outboxRow(eventID: attempt.eventID, installationID: attempt.installationID)
    return row.map { [$0] } ?? []
  }
}
