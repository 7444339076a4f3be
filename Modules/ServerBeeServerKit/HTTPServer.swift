import Foundation
import ServerBeeModels
package import ServerBeeSocketTransport
import ServerBeeTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small HTTP/1.1 server (plain or TLS) on the transport's server pieces: a ``TCPListener``
/// accept loop, a cap on concurrent connections, a registry of open connections, and one task per
/// connection that takes keep-alive requests from an ``HTTPServerConnection`` and hands each to a
/// handler. The simulator and the push relay share it.
///
/// ```swift
/// let server = try HTTPServer(configuration: HTTPServer.Configuration(port: 0))
/// server.start { request in
///   await request.respond(HTTPResponseHead(status: 200, reason: "OK", headers: [:]))
/// }
/// print(server.port)
/// server.stop()
/// ```
///
/// The handler answers each request once, with ``HTTPServerRequest/respond(_:body:)`` or by
/// upgrading it (``HTTPServerRequest/acceptWebSocket(options:)``), which ends the HTTP exchange
/// on that connection. A handler that returns without answering gets a bare 500 written for it.
/// Blocking work in a handler belongs on ``HTTPServerConnection/runBlocking(_:)``.
///
/// Limits, answered by the connection with ``Configuration/rejection``'s headers and body: the
/// size of the request head (431) and body (413); the time to receive a request head
/// (``Configuration/requestHeadTimeout``) and the whole request
/// (``Configuration/requestTimeout``), both counted from the request's first byte (408); the
/// idle time between keep-alive requests (``Configuration/idleTimeout``, closed without an
/// answer); the TLS handshake (``Configuration/handshakeTimeout``). ``stop()`` refuses new
/// connections at once and closes every open one (WebSockets get 1001).
///
/// Load shedding (slowloris): at most ``Configuration/maximumConnections`` connections hold a
/// slot. A connection that arrives when all are taken displaces one that has not delivered a
/// complete request: first the keep-alive connection idle the longest (closed silently), else
/// the connection receiving its request (or TLS handshake) the longest, once it has been at it
/// for ``Configuration/sheddingGracePeriod`` (408 when part of a request had arrived). Only when
/// every slot holds a request being handled, a WebSocket, or a connection still inside its grace
/// period is the new connection closed at once. So slow clients cannot deny service: each new
/// client takes the slot of one of them, and keeps it for the grace period, long enough to send
/// its head, after which its complete request is never shed.
package final class HTTPServer: Sendable {
  /// Handles one request; it must answer it (see the type's discussion).
  package typealias Handler = @Sendable (HTTPServerRequest) async -> Void

  /// The server's settings.
  package struct Configuration: Sendable {
    /// The IP address to bind; `127.0.0.1` by default.
    package var host: String
    /// The port; 0 (the default) picks an ephemeral one.
    package var port: UInt16
    /// The TLS certificate and key, or `nil` (the default) for plain HTTP.
    package var tls: TLSServerIdentity?
    /// The most connections served at once; 1024 by default. A connection over the cap displaces
    /// one that has not delivered a complete request, or is closed at once (see the type).
    package var maximumConnections: Int
    /// How long a connection receiving a request (or in its TLS handshake) is safe from being
    /// displaced by a new connection when the server is full; 1 s by default.
    package var sheddingGracePeriod: Duration
    /// How long one whole request (head and body) may take to arrive, counted from its first
    /// byte (the first request on a connection: from accept, after the TLS handshake); 408
    /// after. 30 s by default.
    package var requestTimeout: Duration
    /// How long a request head may take to arrive, counted like ``requestTimeout`` (which caps
    /// it); 408 after. 10 s by default.
    package var requestHeadTimeout: Duration
    /// How long a kept-alive connection may wait for the first byte of its next request before
    /// it is closed without an answer; 30 s by default.
    package var idleTimeout: Duration
    /// How long a TLS handshake may take; 10 s by default.
    package var handshakeTimeout: Duration
    /// The largest `content-length` accepted (413 above); 1 MiB by default.
    package var maximumBodySize: Int
    /// The request head limits; 16 KiB and 100 lines by default.
    package var headLimits: HTTPHeadCodec.Limits
    /// The listen backlog; 512 by default.
    package var backlog: Int32
    /// Headers and body of the connection's own rejections; `nil` (empty bodies) by default.
    package var rejection: HTTPServerRejection.Provider?
    /// Told when a new connection is refused with `503` because the server is full or out of
    /// file descriptors, or when `accept` itself runs out of descriptors (the connection then
    /// waits in the listen queue); `nil` (the default) closes refused connections without an
    /// answer. Called on the accept loop: keep it short.
    package var onRefusal: (@Sendable (Refusal) -> Void)?
    /// Asked about each request whose head arrives before all of its body; `nil` (every body
    /// is read) by default.
    package var uploadGate: HTTPUploadGate?
    /// Called when the process runs out of file descriptors (at most once a minute); new
    /// connections then get 503 with ``rejection``'s headers and body for 503, and are closed.
    /// `nil` by default. See ``DescriptorBudget``.
    package var onDescriptorsExhausted: (@Sendable () -> Void)?

    /// Creates a configuration with the documented defaults.
    /// - Parameters:
    ///   - host: The IP address to bind.
    ///   - port: The port, or 0.
    ///   - tls: The TLS identity, or `nil`.
    ///   - maximumConnections: The connection cap.
    ///   - sheddingGracePeriod: How long a new connection is safe from load shedding.
    ///   - requestTimeout: The whole-request limit.
    ///   - requestHeadTimeout: The request-head limit.
    ///   - idleTimeout: The keep-alive idle limit.
    ///   - handshakeTimeout: The TLS handshake limit.
    ///   - maximumBodySize: The body cap.
    ///   - headLimits: The head limits.
    ///   - backlog: The listen backlog.
    ///   - rejection: The rejection headers and bodies.
    ///   - uploadGate: The gate for requests whose body is still arriving.
    ///   - onDescriptorsExhausted: The report of running out of file descriptors.
    ///   - onRefusal: Told about refused connections.
    package init(
      host: String = "127.0.0.1", port: UInt16 = 0, tls: TLSServerIdentity? = nil,
      maximumConnections: Int = 1024, sheddingGracePeriod: Duration = .seconds(1),
      requestTimeout: Duration = .seconds(30), requestHeadTimeout: Duration = .seconds(10),
      idleTimeout: Duration = .seconds(30), handshakeTimeout: Duration = .seconds(10),
      maximumBodySize: Int = 1 << 20,
      headLimits: HTTPHeadCodec.Limits = HTTPHeadCodec.Limits(), backlog: Int32 = 512,
      rejection: HTTPServerRejection.Provider? = nil, uploadGate: HTTPUploadGate? = nil,
      onDescriptorsExhausted: (@Sendable () -> Void)? = nil,
      onRefusal: (@Sendable (Refusal) -> Void)? = nil
    ) {
      self.host = host
      self.port = port
      self.tls = tls
      self.maximumConnections = maximumConnections
      self.sheddingGracePeriod = sheddingGracePeriod
      self.requestTimeout = requestTimeout
      self.requestHeadTimeout = requestHeadTimeout
      self.idleTimeout = idleTimeout
      self.handshakeTimeout = handshakeTimeout
      self.maximumBodySize = maximumBodySize
      self.headLimits = headLimits
      self.backlog = backlog
      self.rejection = rejection
      self.onRefusal = onRefusal
      self.uploadGate = uploadGate
      self.onDescriptorsExhausted = onDescriptorsExhausted
    }
  }

  /// Why a connection was refused (``Configuration/onRefusal``).
  package enum Refusal: Sendable, Hashable {
    /// Every slot holds a connection that may not be shed.
    case full
    /// No file descriptor was left for the connection (or for `accept`).
    case outOfDescriptors
  }

  /// The bound port.
  package let port: UInt16
  /// Whether the server speaks TLS.
  package var isTLS: Bool { configuration.tls != nil }
  private let configuration: Configuration
  private let listener: TCPListener
  /// The 503 for connections the server cannot serve for want of file descriptors.
  private let overflowAnswer: [UInt8]
  private let reporter: DescriptorExhaustionReporter
  private let state = Locked(State())

  private struct State {
    var stopping = false
    var nextID = 0
    /// Every connection holding a slot, from accept until its task ends or it is shed: the
    /// cap counts these.
    var slots: [Int: Slot] = [:]
    /// Connections shed but not yet ended: out of the cap, still closed by ``stop()``.
    var shed: [Int: HTTPServerConnection] = [:]
    var acceptLoop: Task<Void, Never>?
  }

  private enum Slot {
    /// Accepted, in the TLS handshake (or about to be registered): shed by cancelling `wake`.
    case starting(WakePipe, since: ContinuousClock.Instant)
    case connected(HTTPServerConnection)
  }

  /// Binds and listens; requests are served after ``start(_:)``.
  /// - Parameter configuration: The settings.
  /// - Throws: ``ServerBeeTransportError`` with `connectionFailed` or `invalidURL`.
  package init(configuration: Configuration) throws {
    self.configuration = configuration
    // Running out of descriptors, in `accept` or before a WebSocket upgrade, is told to both
    // observers through one reporter (the relay's line at most once a minute).
    let reporter = DescriptorExhaustionReporter(
      notify: configuration.onDescriptorsExhausted, refusal: configuration.onRefusal)
    self.reporter = reporter
    let exhausted: (@Sendable () -> Void)? = reporter.isObserved ? reporter.report : nil
    let overflowAnswer = Self.overflowAnswer(configuration.rejection)
    listener = try TCPListener(
      host: configuration.host, port: configuration.port, backlog: configuration.backlog,
      overflowAnswer: overflowAnswer, onDescriptorsExhausted: exhausted)
    self.overflowAnswer = overflowAnswer
    port = listener.port
  }

  /// Starts accepting connections and serving their requests with `handler`; call once.
  /// - Parameter handler: Answers one request.
  package func start(_ handler: @escaping Handler) {
    let loop = Task { [self] in await acceptLoop(handler) }
    let stopped = state.withLock { state -> Bool in
      state.acceptLoop = loop
      return state.stopping
    }
    if stopped { loop.cancel() }
  }

  private func acceptLoop(_ handler: @escaping Handler) async {
    while let socket = try? await listener.accept() {
      guard let wake = try? WakePipe() else {
        // Out of descriptors after accept: the socket is open, so it can still be told (a 503,
        // never a silent reset).
        if configuration.onRefusal != nil {
          refuse(socket, .outOfDescriptors)
        } else {
          socket.answerAndClose(overflowAnswer)
        }
        continue
      }
      // Over the cap with nothing to shed: a 503 for servers that asked, else closed at once
      // (stopping: `socket` closes when it goes out of scope).
      guard let id = admit(socket, wake: wake) else {
        if !state.withLock({ $0.stopping }) { refuse(socket, .full) }
        continue
      }
      Task { [self] in
        await serve(socket, id: id, wake: wake, handler)
        state.withLock {
          $0.slots[id] = nil
          $0.shed[id] = nil
        }
      }
    }
  }

  /// Answers `503` without blocking (a new socket's send buffer takes it), reads what already
  /// arrived so that the close is a FIN rather than a reset, and closes.
  /// Only servers that asked (``Configuration/onRefusal`` set) answer; the others close at
  /// once, as before (the relay's clients read that as busy).
  private func refuse(_ socket: AcceptedSocket, _ reason: Refusal) {
    guard let onRefusal = configuration.onRefusal else { return }
    onRefusal(reason)
    guard let descriptor = socket.take() else { return }
    let answer = Array(
      "HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".utf8)
    _ = answer.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    _ = shutdown(descriptor, Int32(SHUT_WR))
    var scratch = [UInt8](repeating: 0, count: 4096)
    while scratch.withUnsafeMutableBytes({ recv(descriptor, $0.baseAddress, $0.count, 0) }) > 0 {}
    Posix.closeDescriptor(descriptor)
  }

  /// Gives `socket` a slot, shedding another connection first when the server is full.
  private func admit(_ socket: AcceptedSocket, wake: WakePipe) -> Int? {
    state.withLock { state -> Int? in
      guard !state.stopping else { return nil }
      if state.slots.count >= configuration.maximumConnections {
        guard shedOne(&state) else { return nil }
      }
      state.nextID += 1
      state.slots[state.nextID] = .starting(wake, since: socket.acceptedAt)
      return state.nextID
    }
  }

  /// Sheds one connection (see ``LoadShedding``) and frees its slot; `false` when none may be.
  /// Called with the lock held; the connections' own locks are only taken inside it, never the
  /// other way round.
  private func shedOne(_ state: inout State) -> Bool {
    var candidates = state.slots.map { id, slot in
      switch slot {
      case .starting(_, let since):
        return LoadShedding.Candidate(id: id, activity: .receiving(since: since))
      case .connected(let connection):
        return LoadShedding.Candidate(id: id, activity: connection.activity)
      }
    }
    let now = ContinuousClock.now
    while let victim = LoadShedding.victim(
      among: candidates, now: now, grace: configuration.sheddingGracePeriod)
    {
      switch state.slots[victim] {
      case .starting(let wake, _)?:
        wake.cancel()
        state.slots[victim] = nil
        return true
      // Refused when the connection completed a request since `activity` was read.
      case .connected(let connection)? where connection.shed():
        // The slot is free now; the connection ends on its own within moments.
        state.slots[victim] = nil
        state.shed[victim] = connection
        return true
      default:
        break
      }
      candidates.removeAll { $0.id == victim }
    }
    return false
  }

  /// What each connection holding a slot is doing (tests wait for a state).
  var slotActivities: [ConnectionActivity] {
    state.withLock { state in
      state.slots.values.map { slot in
        switch slot {
        case .starting(_, let since): .receiving(since: since)
        case .connected(let connection): connection.activity
        }
      }
    }
  }

  private func serve(
    _ socket: AcceptedSocket, id: Int, wake: WakePipe, _ handler: Handler
  ) async {
    guard
      let connection = try? await HTTPServerConnection(
        socket: socket, tls: configuration.tls, handshakeTimeout: configuration.handshakeTimeout,
        rejection: configuration.rejection, wake: wake,
        onDescriptorsExhausted: reporter.isObserved ? reporter.report : nil)
    else { return }
    let registered = state.withLock { state -> Bool in
      // Not registered when stopping or when shed during the handshake.
      guard !state.stopping, state.slots[id] != nil else { return false }
      state.slots[id] = .connected(connection)
      return true
    }
    guard registered else {
      connection.close()
      return
    }
    while true {
      guard
        let request = try? await connection.next(
          timeout: configuration.requestTimeout, headTimeout: configuration.requestHeadTimeout,
          idleTimeout: configuration.idleTimeout, maxBodySize: configuration.maximumBodySize,
          limits: configuration.headLimits, uploadGate: configuration.uploadGate)
      else { return }
      await handler(request)
      if !request.wasAnswered {
        await request.respond(
          HTTPResponseHead(status: 500, reason: "Internal Server Error", headers: [:]))
      }
      // After an upgrade the next `next` throws, which ends the loop too.
      guard request.keepsAlive else { return }
    }
  }

  private static func overflowAnswer(_ rejection: HTTPServerRejection.Provider?) -> [UInt8] {
    let custom = rejection?(503)
    var headers = custom?.headers ?? [:]
    let body = custom?.body ?? []
    headers["content-length"] = String(body.count)
    headers["connection"] = "close"
    return HTTPResponseHead(status: 503, reason: "Service Unavailable", headers: headers)
      .serialized + body
  }

  /// Refuses new connections at once and closes every open one (WebSockets get 1001); their
  /// tasks finish on their own shortly after.
  package func stop() {
    let (slots, loop) = state.withLock { state in
      state.stopping = true
      return (Array(state.slots.values) + state.shed.values.map(Slot.connected), state.acceptLoop)
    }
    listener.close()
    loop?.cancel()
    for slot in slots {
      switch slot {
      case .starting(let wake, _): wake.cancel()
      case .connected(let connection): connection.close()
      }
    }
  }
}

/// Tells a server's observers that the process ran out of file descriptors: the relay's
/// `onDescriptorsExhausted` at most once a minute, the simulator's `onRefusal` every time (its
/// log limits itself).
final class DescriptorExhaustionReporter: Sendable {
  private let notify: (@Sendable () -> Void)?
  private let refusal: (@Sendable (HTTPServer.Refusal) -> Void)?
  private let lastNotice = Locked<ContinuousClock.Instant?>(nil)

  init(notify: (@Sendable () -> Void)?, refusal: (@Sendable (HTTPServer.Refusal) -> Void)?) {
    self.notify = notify
    self.refusal = refusal
  }

  /// Whether anyone listens.
  var isObserved: Bool { notify != nil || refusal != nil }

  /// Reports one exhaustion.
  @Sendable func report() {
    let now = ContinuousClock.now
    let due = lastNotice.withLock { last -> Bool in
      if let last, now - last < .seconds(60) { return false }
      last = now
      return true
    }
    if due { notify?() }
    refusal?(.outOfDescriptors)
  }
}
