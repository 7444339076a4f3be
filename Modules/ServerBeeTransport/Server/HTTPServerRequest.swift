import Foundation
import ServerBeeModels

/// One HTTP/1.1 request read from an accepted socket, answered once: with a plain response
/// (``respond(_:body:)``, then the socket closes) or by upgrading to a WebSocket
/// (``acceptWebSocket(options:)``: validate, negotiate permessage-deflate, write `101`).
///
/// The simulator's building block for both its REST routes and `/api/ws/servers`:
///
/// ```swift
/// let listener = try TCPListener()
/// let request = try await HTTPServerRequest.read(from: try await listener.accept())
/// guard request.head.headers["authorization"] == "Bearer good" else {
///   await request.respond(HTTPResponseHead(status: 401, reason: "Unauthorized", headers: [:]))
///   return
/// }
/// let connection = try await request.acceptWebSocket()
/// ```
///
/// Bodies need `content-length` (at most `maxBodySize`); chunked requests are answered with 501.
/// Each socket carries one request (responses say `connection: close`).
package final class HTTPServerRequest: Sendable {
  /// The request head.
  package let head: HTTPRequestHead
  /// The request body; empty when there is none.
  package let body: [UInt8]
  private let stream: BlockingIO.Transfer<PlainStream>
  private let leftover: [UInt8]
  private let wake: WakePipe
  private let answered = Locked(false)

  private init(
    head: HTTPRequestHead, body: [UInt8], stream: PlainStream, leftover: [UInt8], wake: WakePipe
  ) {
    self.head = head
    self.body = body
    self.stream = BlockingIO.Transfer(stream)
    self.leftover = leftover
    self.wake = wake
  }

  /// Reads one request (head and `content-length` body) from an accepted socket.
  /// - Parameters:
  ///   - socket: The accepted socket; the request takes it over.
  ///   - timeout: How long the client may take to send the request; 10 s by default.
  ///   - maxBodySize: The largest body accepted; 1 MiB by default.
  /// - Returns: The request, to be answered once.
  /// - Throws: ``ServerBeeTransportError``: `malformedHTTPHead` (after answering 400, 413 or 501
  ///   where possible), `timedOut`, `connectionLost`, `connectionClosed`; `CancellationError`.
  package static func read(
    from socket: AcceptedSocket, timeout: Duration = .seconds(10), maxBodySize: Int = 1 << 20
  ) async throws -> HTTPServerRequest {
    guard let descriptor = socket.take() else {
      throw ServerBeeTransportError(.connectionClosed, "the socket was already taken")
    }
    let transfer = BlockingIO.Transfer(PlainStream(descriptor: descriptor))
    let wake = try WakePipe()
    let parts = try await BlockingIO.run(wake: wake) {
      () throws -> (HTTPRequestHead, [UInt8], [UInt8]) in
      let stream = transfer.value
      let deadline = ContinuousClock.now.advanced(by: timeout)
      let (bytes, afterHead) = try BlockingIO.readHead(from: stream, deadline: deadline, wake: wake)
      guard let head = try? HTTPHeadCodec.parseRequest(bytes) else {
        try? reject(400, "Bad Request", on: stream, wake: wake)
        throw ServerBeeTransportError(.malformedHTTPHead, "the request head is malformed")
      }
      if head.headers["transfer-encoding"] != nil {
        try? reject(501, "Not Implemented", on: stream, wake: wake)
        throw ServerBeeTransportError(
          .malformedHTTPHead, "chunked request bodies are not supported")
      }
      var length = 0
      if let text = head.headers["content-length"] {
        guard let value = Int(text), value >= 0, text.allSatisfy(\.isASCII) else {
          try? reject(400, "Bad Request", on: stream, wake: wake)
          throw ServerBeeTransportError(.malformedHTTPHead, "bad content-length")
        }
        guard value <= maxBodySize else {
          try? reject(413, "Content Too Large", on: stream, wake: wake)
          throw ServerBeeTransportError(.malformedHTTPHead, "the request body is too large")
        }
        length = value
      }
      let (body, rest) = try BlockingIO.readBody(
        length: length, after: afterHead, from: stream, deadline: deadline, wake: wake)
      return (head, body, rest)
    }.value
    return HTTPServerRequest(
      head: parts.0, body: parts.1, stream: transfer.value, leftover: parts.2, wake: wake)
  }

  /// Upgrades to a WebSocket: validates the handshake, negotiates compression, writes `101`.
  /// - Parameter options: The connection settings.
  /// - Returns: The open server-side connection.
  /// - Throws: `handshakeInvalid` (after answering 400), `connectionClosed` when already answered,
  ///   or a socket error.
  package func acceptWebSocket(
    options: WebSocketServerOptions = WebSocketServerOptions()
  ) async throws -> any WebSocketConnection {
    try await acceptWebSocket(options: options, clock: ContinuousClock())
  }

  /// ``acceptWebSocket(options:)`` with an injected keep-alive clock.
  func acceptWebSocket(
    options: WebSocketServerOptions, clock: any Clock<Duration>
  ) async throws -> any WebSocketConnection {
    try claim()
    let key: String
    do {
      key = try WebSocketHandshake.validateRequest(head)
    } catch {
      var headers: HTTPHeaders = [:]
      if head.headers["sec-websocket-version"] != "13" { headers["sec-websocket-version"] = "13" }
      await write(HTTPResponseHead(status: 400, reason: "Bad Request", headers: headers), [])
      throw ServerBeeTransportError(.handshakeInvalid, error.detail)
    }
    let negotiated =
      options.compression
      ? PerMessageDeflateParameters.negotiate(offers: head.headers["sec-websocket-extensions"])
      : nil
    let response = WebSocketHandshake.switchingProtocols(key: key, extensions: negotiated?.response)
    let stream = stream
    let wake = wake
    let bytes = response.serialized
    _ = try await BlockingIO.run(wake: wake) {
      try BlockingIO.writeAll(
        bytes, to: stream.value, deadline: ContinuousClock.now.advanced(by: options.closeTimeout),
        wake: wake)
    }
    let connection = try SocketWebSocketConnection(
      stream: stream.value, leftover: leftover,
      options: WebSocketOptions(
        role: .server, maxMessageSize: options.maxMessageSize, deflate: negotiated?.parameters,
        pingInterval: options.pingInterval, pongTimeout: options.pongTimeout,
        closeTimeout: options.closeTimeout),
      clock: clock)
    connection.start()
    return connection
  }

  /// Answers with a plain HTTP response, then closes the socket; later calls do nothing.
  /// - Parameters:
  ///   - head: The response head; `content-length` and `connection: close` are set.
  ///   - body: The body; empty by default.
  package func respond(_ head: HTTPResponseHead, body: [UInt8] = []) async {
    guard (try? claim()) != nil else { return }
    await write(head, body)
  }

  private func claim() throws {
    let first = answered.withLock { answered in
      defer { answered = true }
      return !answered
    }
    guard first else {
      throw ServerBeeTransportError(.connectionClosed, "the request was already answered")
    }
  }

  /// Writes a closing response (bounded to 5 s) and closes the socket.
  private func write(_ head: HTTPResponseHead, _ body: [UInt8]) async {
    let stream = stream
    let wake = wake
    _ = try? await BlockingIO.run(wake: wake) {
      try Self.send(head, body, on: stream.value, wake: wake)
    }
    stream.value.close()
  }

  private static func reject(
    _ status: Int, _ reason: String, on stream: PlainStream, wake: WakePipe
  ) throws {
    try send(
      HTTPResponseHead(status: status, reason: reason, headers: [:]), [], on: stream, wake: wake)
  }

  private static func send(
    _ head: HTTPResponseHead, _ body: [UInt8], on stream: PlainStream, wake: WakePipe
  ) throws {
    var head = head
    head.headers["content-length"] = String(body.count)
    head.headers["connection"] = "close"
    try BlockingIO.writeAll(
      head.serialized + body, to: stream, deadline: ContinuousClock.now.advanced(by: .seconds(5)),
      wake: wake)
  }
}
