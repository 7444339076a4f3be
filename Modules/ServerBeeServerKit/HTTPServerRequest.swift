import Foundation
import ServerBeeModels
package import ServerBeeSocketTransport
package import ServerBeeTransport

/// One HTTP/1.1 request read from an accepted connection, answered once: with a plain response
/// (``respond(_:body:)``) or by upgrading to a WebSocket (``acceptWebSocket(options:)``:
/// validate, negotiate permessage-deflate, write `101`).
///
/// The simulator's building block for both its REST routes and `/api/ws/servers`. A single
/// request per socket:
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
/// For keep-alive, take requests from
/// ``HTTPServerConnection/next(timeout:headTimeout:idleTimeout:maxBodySize:limits:)`` instead:
/// the connection then stays open after a response unless the request asked for
/// `connection: close` or spoke HTTP/1.0.
///
/// Bodies need `content-length` (at most `maxBodySize`); chunked requests are answered with 501.
package final class HTTPServerRequest: Sendable {
  /// The request head.
  package let head: HTTPRequestHead
  /// The request body; empty when there is none.
  package let body: [UInt8]
  /// The connection the request came on.
  package let connection: HTTPServerConnection
  /// Whether the connection stays open after ``respond(_:body:)``.
  package let keepsAlive: Bool
  /// What the server's ``HTTPUploadGate`` gave the request, if it met the gate; ended when the
  /// request is answered (responded to or upgraded).
  package let ticket: HTTPRequestTicket?
  private let answered = Locked(false)

  init(
    head: HTTPRequestHead, body: [UInt8], connection: HTTPServerConnection, keepAlive: Bool = true,
    ticket: HTTPRequestTicket? = nil
  ) {
    self.ticket = ticket
    self.head = head
    self.body = body
    self.connection = connection
    self.keepsAlive =
      keepAlive && head.version != "HTTP/1.0"
      && head.headers["connection"]?.lowercased().contains("close") != true
  }

  /// Reads one request (head and `content-length` body) from an accepted socket; the response
  /// closes the socket.
  /// - Parameters:
  ///   - socket: The accepted socket; the request takes it over.
  ///   - timeout: How long the client may take to send the request; 10 s by default.
  ///   - maxBodySize: The largest body accepted; 1 MiB by default.
  /// - Returns: The request, to be answered once.
  /// - Throws: ``ServerBeeTransportError``: `malformedHTTPHead` (after answering 400, 413, 431 or
  ///   501), `timedOut`, `connectionLost`, `connectionClosed`; `CancellationError`.
  package static func read(
    from socket: AcceptedSocket, timeout: Duration = .seconds(10), maxBodySize: Int = 1 << 20
  ) async throws -> HTTPServerRequest {
    let connection = try await HTTPServerConnection(socket: socket)
    guard let request = try await connection.next(timeout: timeout, maxBodySize: maxBodySize)
    else {
      throw ServerBeeTransportError(.connectionLost, "the peer sent no request")
    }
    return HTTPServerRequest(
      head: request.head, body: request.body, connection: connection, keepAlive: false)
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
      await connection.send(
        HTTPResponseHead(status: 400, reason: "Bad Request", headers: headers), body: [],
        keepAlive: false, headOnly: false)
      throw ServerBeeTransportError(.handshakeInvalid, error.detail)
    }
    let negotiated =
      options.compression
      ? PerMessageDeflateParameters.negotiate(offers: head.headers["sec-websocket-extensions"])
      : nil
    let response = WebSocketHandshake.switchingProtocols(key: key, extensions: negotiated?.response)
    // The WebSocket needs descriptors of its own (its wake pipe): checked before the `101`, so
    // a process out of descriptors answers 503 (with the server's rejection body) instead of a
    // `101` followed by a 1011 close.
    guard (try? WakePipe()) != nil else {
      connection.onDescriptorsExhausted?()
      await connection.sendRejection(503, "Service Unavailable")
      throw ServerBeeTransportError(
        .connectionFailed, "no file descriptor is left for a WebSocket")
    }
    guard connection.beginUpgrade() else {
      throw ServerBeeTransportError(.connectionClosed, "the connection is closed")
    }
    guard await connection.write(response.serialized, timeout: options.closeTimeout) else {
      connection.finish()
      throw ServerBeeTransportError(.connectionLost, "could not write the 101 response")
    }
    return try connection.upgrade(
      options: WebSocketOptions(
        role: .server, maxMessageSize: options.maxMessageSize, deflate: negotiated?.parameters,
        pingInterval: options.pingInterval, pongTimeout: options.pongTimeout,
        closeTimeout: options.closeTimeout, maxPendingWrite: options.maxPendingWrite,
        inboundHighWaterMessages: options.inboundHighWaterMessages,
        inboundHighWaterBytes: options.inboundHighWaterBytes),
      clock: clock)
  }

  /// Answers with a plain HTTP response; later calls do nothing.
  ///
  /// `content-length` and `connection` (`keep-alive` or `close`, see ``keepsAlive``) are set;
  /// a `HEAD` request gets the head only. The socket closes unless the connection stays alive.
  /// - Parameters:
  ///   - head: The response head.
  ///   - body: The body; empty by default.
  package func respond(_ head: HTTPResponseHead, body: [UInt8] = []) async {
    guard (try? claim()) != nil else { return }
    await connection.send(
      head, body: body, keepAlive: keepsAlive, headOnly: self.head.method == "HEAD")
  }

  /// Whether the request was answered (responded to or upgraded).
  var wasAnswered: Bool { answered.withLock { $0 } }

  private func claim() throws {
    let first = answered.withLock { answered in
      defer { answered = true }
      return !answered
    }
    guard first else {
      throw ServerBeeTransportError(.connectionClosed, "the request was already answered")
    }
    ticket?.end()
  }
}
