import Foundation
import ServerBeeModels
import ServerBeeRoutes
import ServerBeeServerKit
import ServerBeeSocketTransport
import ServerBeeTransport

/// Server side of `/api/ws/docker/logs/{server_id}` (Protocol/AppRoutes.md §8.4): the refusals
/// before the upgrade, then `session` first, the client's `subscribe` and `unsubscribe`, and a
/// container's lines from its ``DockerPlan``: the last `tail` at once, then (with `follow`) each
/// new line as the simulator clock reaches it. Closed with 4001 at a mobile token's expiry.
///
/// The upgrade, framing, pings and close handshake are the transport's; this type decides what
/// to send. One task sends: it reads the database (on the connection's thread) and the clock,
/// woken by the client's messages, by the clock moving (the live hub's wake-ups) and once a
/// second; a second task only reads the client's messages into ``Commands``.
///
/// [inferred], as Protocol/AppRoutes.md §8.4 records: an unknown server is refused like an
/// offline agent (400 `Agent is offline`); a subscription to a container the server does not
/// have sends no lines; a stopped container's lines end when it stopped; lines go out in
/// batches of at most ``batch``, and after a jump of the clock at most the newest ``backlog``
/// new lines are sent; `docker_logs_subscribed` is audited at each subscription and
/// `docker_logs_unsubscribed` once when a socket that subscribed closes.
struct DockerLogSession {
  let core: SimulatorCore
  let request: HTTPServerRequest
  let serverID: String

  /// The most entries in one `logs` message.
  static let batch = 100
  /// The most new lines sent after one wait (a clock moved by days would be millions).
  static let backlog = 1_000

  /// What the client asked for and the sender has not acted on yet.
  struct Commands {
    var pending: [Command] = []
    var readerDone = false
  }

  enum Command {
    case subscribe(containerID: String, tail: Int64, follow: Bool)
    case unsubscribe
  }

  /// The subscription being served.
  struct Subscription {
    var plan: DockerPlan
    var container: DockerPlan.Container?
    /// The next line to send.
    var next: Int64
    var follow: Bool
    /// When the container stopped (its lines end there); `nil` while it runs.
    var stoppedAt: Int64?
  }

  /// The outcome of the checks before the upgrade.
  enum Admission {
    case refused(HTTPResponse)
    case admitted(Caller)
  }

  func run() async {
    let core = core
    let serverID = serverID
    let context = self.context
    let admission = try? await request.connection.runBlocking {
      try core.db.serial { try Self.admit(core, serverID, context) }
    }
    guard case .admitted(let caller)? = admission else {
      let refusal: HTTPResponse
      if case .refused(let response)? = admission {
        refusal = response
      } else {
        refusal = Reply.error(500, .internalError, "Internal error: Database error")
      }
      await request.respond(
        HTTPListener.head(refusal.status, headers: refusal.headers), body: Array(refusal.body))
      return
    }
    guard ConnectionBudget.canOpen(2) else {
      await request.respond(HTTPListener.head(503))
      return
    }
    guard
      let socket = try? await request.acceptWebSocket(
        options: WebSocketServerOptions(
          maxMessageSize: LiveSession.maximumMessage, compression: false))
    else { return }
    let expiry: Int64? = caller.source == "mobile" ? caller.expiresAt : nil
    // The hub's wake-ups (the clock moved, the simulator stops) wake the sender; its frames
    // are not for this socket and are dropped.
    let waker = core.hub.subscribe()
    defer { core.hub.unsubscribe(waker) }
    let commands = Locked(Commands())
    let reader = Task {
      do {
        for try await message in socket.inbound {
          guard case .text(let text) = message, let command = Self.command(text) else { continue }
          commands.withLock { $0.pending.append(command) }
          waker.wake()
        }
      } catch {}
      commands.withLock { $0.readerDone = true }
      waker.wake()
    }
    defer { reader.cancel() }
    let sessionID = Crypto.uuid(core.random)
    let session = "{\"type\":\"session\",\"session_id\":\"\(sessionID)\"}"
    var subscribed = false
    var ending: (WebSocketCloseCode, String?) = (.goingAway, nil)
    if (try? await socket.send(.text(session))) != nil {
      ending = await stream(
        to: socket, caller: caller, expiry: expiry, waker, commands, subscribed: &subscribed)
    }
    await socket.close(code: ending.0, reason: ending.1)
    if subscribed {
      _ = try? await request.connection.runBlocking {
        try core.db.serial {
          try core.audit(
            caller, "docker_logs_unsubscribed",
            detail: try DockerArea.detail([("server_id", serverID)]),
            context)
        }
      }
    }
  }

  /// The request as the route handlers see it (for the audit's address).
  private var context: RequestContext {
    let call = HTTPRequest(
      method: .get, url: URL(fileURLWithPath: "/"), headers: request.head.headers, body: Data())
    let remote =
      request.connection.peerAddress.isEmpty ? "127.0.0.1" : request.connection.peerAddress
    return RequestContext(call, remoteAddress: remote)
  }

  /// The checks before the upgrade, in the server's order: a credential (401, empty), an admin
  /// (403, empty, audited), the agent online (400 plain text), the capability (403 JSON).
  static func admit(_ core: SimulatorCore, _ serverID: String, _ context: RequestContext) throws
    -> Admission
  {
    guard let caller = try core.authenticate(context.request.headers),
      !caller.user.mustChangePassword
    else { return .refused(HTTPResponse(status: 401)) }
    guard caller.user.role == "admin" else {
      try core.audit(
        caller, "docker_logs_subscribe_denied",
        detail: try DockerArea.detail([("server_id", serverID)]), context)
      return .refused(HTTPResponse(status: 403))
    }
    guard let server = try core.server(id: serverID), server.online else {
      return .refused(Reply.text(400, "Agent is offline"))
    }
    guard server.capabilities & DockerArea.capability != 0 else {
      return .refused(APIError.forbidden("agent_capability_disabled").response)
    }
    return .admitted(caller)
  }

  /// A client message, or `nil` for one the server ignores.
  static func command(_ text: String) -> Command? {
    guard let value = try? WireJSON.decode(JSONValue.self, from: Data(text.utf8)),
      case .string(let type)? = value["type"]
    else { return nil }
    switch type {
    case "subscribe":
      guard case .string(let container)? = value["container_id"] else { return nil }
      var tail: Int64 = 100
      switch value["tail"] {
      case nil, .null?: break
      case .number(let number)? where number >= 0 && number == number.rounded():
        tail = Int64(min(number, 1e12))
      default: return nil
      }
      var follow = true
      switch value["follow"] {
      case nil, .null?: break
      case .bool(let flag)?: follow = flag
      default: return nil
      }
      return .subscribe(containerID: container, tail: tail, follow: follow)
    case "unsubscribe": return .unsubscribe
    default: return nil
    }
  }

  /// Sends lines until the session must end; returns the close code and reason to send.
  private func stream(
    to socket: any WebSocketConnection, caller: Caller, expiry: Int64?,
    _ waker: LiveHub.Subscriber, _ commands: Locked<Commands>, subscribed: inout Bool
  ) async -> (WebSocketCloseCode, String?) {
    var subscription: Subscription?
    while true {
      let now = core.clock.nowNanos
      if let expiry, now >= expiry { return (LiveSession.tokenExpired, "token expired") }
      let (pending, readerDone) = commands.withLock { state in
        defer { state.pending = [] }
        return (state.pending, state.readerDone)
      }
      if readerDone { return (.normalClosure, nil) }
      for command in pending {
        switch command {
        case .unsubscribe:
          subscription = nil
        case .subscribe(let containerID, let tail, let follow):
          subscription = await subscribe(caller, containerID, tail: tail, follow: follow)
          subscribed = true
        }
      }
      if var current = subscription {
        let entries = lines(&current, now: now)
        subscription = current.follow ? current : nil
        for start in stride(from: 0, to: entries.count, by: Self.batch) {
          let batch = entries[start..<min(entries.count, start + Self.batch)]
          guard (try? await socket.send(.text(Self.logs(Array(batch))))) != nil else {
            return (.goingAway, nil)
          }
        }
      }
      var wait: TimeInterval = 1
      if let current = subscription, let container = current.container, current.stoppedAt == nil {
        let due = current.plan.logTime(container, current.next) - core.clock.nowNanos
        wait = min(wait, max(0.001, Double(due) / 1e9))
      }
      if let expiry {
        wait = max(0.001, min(wait, Double(expiry - core.clock.nowNanos) / 1e9))
      }
      let (_, _, closed) = await waker.next(timeout: wait)
      if closed { return (.goingAway, "") }
    }
  }

  /// The subscription to `containerID`, audited; its first lines are the last `tail`.
  private func subscribe(_ caller: Caller, _ containerID: String, tail: Int64, follow: Bool)
    async -> Subscription?
  {
    let core = core
    let serverID = serverID
    let context = context
    let found = try? await request.connection.runBlocking {
      try core.db.serial { () -> Subscription? in
        try core.audit(
          caller, "docker_logs_subscribed",
          detail: try DockerArea.detail([("server_id", serverID), ("container_id", containerID)]),
          context)
        guard let server = try core.server(id: serverID) else { return nil }
        let engine = try DockerArea(core: core).engine(server)
        let standing = engine.container(named: containerID)
        guard let standing else {
          return Subscription(
            plan: engine.plan, container: nil, next: 0, follow: follow, stoppedAt: nil)
        }
        let stoppedAt = standing.running ? nil : standing.since
        let last = engine.plan.lastLine(standing.planned, at: min(core.now, stoppedAt ?? core.now))
        return Subscription(
          plan: engine.plan, container: standing.planned, next: max(0, last - tail + 1),
          follow: follow, stoppedAt: stoppedAt)
      }
    }
    return found ?? nil
  }

  /// The lines of `subscription` due by `now`, and the next one to send after them.
  private func lines(_ subscription: inout Subscription, now: Int64) -> [DockerLogEntry] {
    guard let container = subscription.container else { return [] }
    let until = min(now, subscription.stoppedAt ?? now)
    let last = subscription.plan.lastLine(container, at: until)
    guard last >= subscription.next else { return [] }
    let first = max(subscription.next, last - Int64(Self.backlog) + 1)
    subscription.next = last + 1
    return (first...last).map { subscription.plan.logLine(container, $0) }
  }

  /// A `logs` message.
  static func logs(_ entries: [DockerLogEntry]) -> String {
    let value = JSONValue.object([
      ("type", .string("logs")),
      (
        "entries",
        .array(
          entries.map {
            .object([
              ("timestamp", $0.timestamp.map { .string($0) } ?? .null),
              ("stream", .string($0.stream)), ("message", .string($0.message)),
            ])
          })
      ),
    ])
    return (try? WireJSON.encode(value)).map { String(decoding: $0, as: UTF8.self) }
      ?? "{\"type\":\"logs\",\"entries\":[]}"
  }
}
