public import Foundation
public import ServerBeeModels
public import ServerBeeTransport

/// A working in-memory `WebSocketTransport` whose server end each test drives.
///
/// Every `connect` is answered by the next scripted ``Outcome`` (``Outcome/accept`` once the
/// script is used up). An accepted connection hands its server end, a ``FakeWebSocketPeer``, to
/// ``peers``, so a test can send frames, answer or ignore pings, and close with any code:
///
/// ```swift
/// let transport = FakeWebSocketTransport(script: [.reject(upgradeStatus: 401), .accept])
/// // … start the code under test …
/// var peers = transport.peers.makeAsyncIterator()
/// let peer = try #require(await peers.next())
/// peer.send(#"{"type":"full_sync","servers":[],"upgrades":[]}"#)
/// peer.close(code: .tokenExpired, reason: "token expired")
/// ```
public final class FakeWebSocketTransport: WebSocketTransport, Sendable {
  /// How one `connect` call is answered.
  public enum Outcome: Sendable {
    /// The upgrade succeeds.
    case accept
    /// The upgrade is answered with this HTTP status (`upgradeRejected`).
    case reject(upgradeStatus: Int)
    /// The connection fails with this error.
    case fail(ServerBeeTransportError)
  }

  /// The server ends of accepted connections, in order.
  public let peers: AsyncStream<FakeWebSocketPeer>
  private let peerContinuation: AsyncStream<FakeWebSocketPeer>.Continuation
  private let state: Locked<(script: [Outcome], requests: [(URL, HTTPHeaders)])>

  /// Creates a transport answering `connect` calls with `script`, then accepting.
  /// - Parameter script: The answers, in order.
  public init(script: [Outcome] = []) {
    (peers, peerContinuation) = AsyncStream.makeStream(of: FakeWebSocketPeer.self)
    state = Locked((script, []))
  }

  /// The URL and headers of every `connect` call, in order.
  public var requests: [(url: URL, headers: HTTPHeaders)] {
    state.withLock { $0.requests.map { (url: $0.0, headers: $0.1) } }
  }

  /// Answers with the next scripted outcome.
  public func connect(to url: URL, headers: HTTPHeaders) async throws
    -> any WebSocketConnection
  {
    let outcome = state.withLock { state -> Outcome in
      state.requests.append((url, headers))
      return state.script.isEmpty ? .accept : state.script.removeFirst()
    }
    switch outcome {
    case .accept:
      let peer = FakeWebSocketPeer()
      peerContinuation.yield(peer)
      return peer.client
    case .reject(let status):
      throw ServerBeeTransportError(
        .upgradeRejected, "the server answered the upgrade with \(status)", httpStatus: status)
    case .fail(let error):
      throw error
    }
  }
}

/// The server end of a fake connection.
public final class FakeWebSocketPeer: Sendable {
  /// The client end handed to the code under test.
  public let client: FakeWebSocketConnection
  /// What the client sent, in order.
  public let received: AsyncStream<WebSocketMessage>

  init() {
    let (received, receivedContinuation) = AsyncStream.makeStream(of: WebSocketMessage.self)
    self.received = received
    client = FakeWebSocketConnection(sent: receivedContinuation)
  }

  /// Sends a text frame to the client.
  /// - Parameter text: The frame.
  public func send(_ text: String) { client.deliver(.text(text)) }

  /// Closes the connection with a close frame; the client's inbound stream finishes.
  /// - Parameters:
  ///   - code: The close code.
  ///   - reason: The reason.
  public func close(code: WebSocketCloseCode, reason: String = "") {
    client.closedByPeer(WebSocketClose(code: code, reason: reason))
  }

  /// Drops the connection without a close frame; the client's inbound stream throws.
  public func drop() { client.dropped() }

  /// Whether pings are answered (default `true`); when `false` a ping waits until cancelled.
  public var answersPings: Bool {
    get { client.answersPings }
    set { client.answersPings = newValue }
  }

  /// The close the client sent, if it closed.
  public var clientClose: WebSocketClose? { client.sentClose }
}

/// The client end of a fake connection.
public final class FakeWebSocketConnection: WebSocketConnection, Sendable {
  private struct State {
    var answersPings = true
    var sentClose: WebSocketClose?
    var receivedClose: WebSocketClose?
    var pings = 0
  }

  /// The messages the peer sent.
  public let inbound: AsyncThrowingStream<WebSocketMessage, any Error>
  private let inboundContinuation: AsyncThrowingStream<WebSocketMessage, any Error>.Continuation
  private let sent: AsyncStream<WebSocketMessage>.Continuation
  private let state = Locked(State())

  init(sent: AsyncStream<WebSocketMessage>.Continuation) {
    self.sent = sent
    (inbound, inboundContinuation) = AsyncThrowingStream.makeStream(
      of: WebSocketMessage.self, throwing: (any Error).self)
  }

  /// The peer's close frame, once it closed.
  public var receivedClose: WebSocketClose? { state.withLock { $0.receivedClose } }
  /// How many pings the client sent.
  public var pingCount: Int { state.withLock { $0.pings } }

  var answersPings: Bool {
    get { state.withLock { $0.answersPings } }
    set { state.withLock { $0.answersPings = newValue } }
  }

  var sentClose: WebSocketClose? { state.withLock { $0.sentClose } }

  /// Passes the message to the peer.
  public func send(_ message: WebSocketMessage) async throws {
    guard state.withLock({ $0.sentClose == nil && $0.receivedClose == nil }) else {
      throw ServerBeeTransportError(.connectionClosed, "the fake connection is closed")
    }
    sent.yield(message)
  }

  /// Returns at once when the peer answers pings; otherwise waits until cancelled.
  public func ping() async throws {
    let answers = state.withLock { state -> Bool in
      state.pings += 1
      return state.answersPings
    }
    if answers { return }
    let (never, continuation) = AsyncStream.makeStream(of: Void.self)
    await withTaskCancellationHandler {
      for await _ in never {}
    } onCancel: {
      continuation.finish()
    }
    throw CancellationError()
  }

  /// Records the close and finishes the inbound stream.
  public func close(code: WebSocketCloseCode, reason: String?) async {
    state.withLock { state in
      if state.sentClose == nil {
        state.sentClose = WebSocketClose(code: code, reason: reason ?? "")
      }
    }
    inboundContinuation.finish()
    sent.finish()
  }

  func deliver(_ message: WebSocketMessage) { inboundContinuation.yield(message) }

  func closedByPeer(_ close: WebSocketClose) {
    state.withLock { $0.receivedClose = close }
    inboundContinuation.finish()
  }

  func dropped() {
    inboundContinuation.finish(
      throwing: ServerBeeTransportError(.connectionLost, "the fake peer dropped the connection"))
  }
}
