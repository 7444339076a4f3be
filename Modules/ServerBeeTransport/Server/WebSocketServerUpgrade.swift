import Foundation
import ServerBeeModels

/// The server side of the opening handshake on an accepted socket: read the request head, then
/// ``accept(options:)`` (validate, negotiate permessage-deflate, write `101`) or
/// ``respond(_:body:)`` (for example a `401` before the upgrade).
///
/// ```swift
/// let upgrade = try await WebSocketServerUpgrade.read(from: socket)
/// guard upgrade.request.headers["authorization"] == "Bearer good" else {
///   await upgrade.respond(HTTPResponseHead(status: 401, reason: "Unauthorized", headers: [:]))
///   return
/// }
/// let connection = try await upgrade.accept()
/// ```
package final class WebSocketServerUpgrade: Sendable {
  /// Settings for the server side of a connection.
  package struct Options: Sendable {
    /// The largest inbound message; 16 MiB by default.
    package var maxMessageSize: Int
    /// Whether to accept a permessage-deflate offer; `true` by default.
    package var compression: Bool
    /// Keep-alive ping interval, or `nil` (the ServerBee server sends none); `nil` by default.
    package var pingInterval: Duration?
    /// Keep-alive pong limit; 10 s by default.
    package var pongTimeout: Duration
    /// Close handshake limit; 5 s by default.
    package var closeTimeout: Duration

    /// Creates options with the documented defaults.
    /// - Parameters:
    ///   - maxMessageSize: The largest inbound message.
    ///   - compression: Whether to accept permessage-deflate.
    ///   - pingInterval: Keep-alive interval, or `nil`.
    ///   - pongTimeout: Keep-alive pong limit.
    ///   - closeTimeout: Close handshake limit.
    package init(
      maxMessageSize: Int = 16 << 20, compression: Bool = true, pingInterval: Duration? = nil,
      pongTimeout: Duration = .seconds(10), closeTimeout: Duration = .seconds(5)
    ) {
      self.maxMessageSize = maxMessageSize
      self.compression = compression
      self.pingInterval = pingInterval
      self.pongTimeout = pongTimeout
      self.closeTimeout = closeTimeout
    }
  }

  /// The client's request head.
  package let request: HTTPRequestHead
  private let stream: BlockingIO.Transfer<PlainStream>
  private let leftover: [UInt8]
  private let wake: WakePipe
  private let used = Locked(false)

  private init(
    request: HTTPRequestHead, stream: PlainStream, leftover: [UInt8], wake: WakePipe
  ) {
    self.request = request
    self.stream = BlockingIO.Transfer(stream)
    self.leftover = leftover
    self.wake = wake
  }

  /// Reads the request head from an accepted socket.
  /// - Parameters:
  ///   - socket: The accepted socket; this upgrade takes it over.
  ///   - timeout: How long the client may take to send its head; 10 s by default.
  /// - Returns: The pending upgrade.
  /// - Throws: ``ServerBeeTransportError`` (`malformedHTTPHead`, `timedOut`, `connectionLost`).
  package static func read(
    from socket: AcceptedSocket, timeout: Duration = .seconds(10)
  ) async throws -> WebSocketServerUpgrade {
    guard let descriptor = socket.take() else {
      throw ServerBeeTransportError(.connectionClosed, "the socket was already taken")
    }
    let stream = PlainStream(descriptor: descriptor)
    let transfer = BlockingIO.Transfer(stream)
    let wake = try WakePipe()
    let (head, leftover) = try await BlockingIO.run(wake: wake) {
      try BlockingIO.readHead(
        from: transfer.value, deadline: ContinuousClock.now.advanced(by: timeout), wake: wake)
    }.value
    do {
      let request = try HTTPHeadCodec.parseRequest(head)
      return WebSocketServerUpgrade(
        request: request, stream: stream, leftover: leftover, wake: wake)
    } catch {
      throw ServerBeeTransportError(.malformedHTTPHead, "the request head is malformed")
    }
  }

  /// Completes the upgrade: validates the request, negotiates compression, writes `101`.
  /// - Parameter options: The connection settings.
  /// - Returns: The open server-side connection.
  /// - Throws: `handshakeInvalid` (after answering 400) or a socket error.
  package func accept(options: Options = Options()) async throws -> any WebSocketConnection {
    try await accept(options: options, clock: ContinuousClock())
  }

  /// ``accept(options:)`` with an injected keep-alive clock.
  func accept(options: Options, clock: any Clock<Duration>) async throws -> any WebSocketConnection
  {
    try claim()
    let key: String
    do {
      key = try WebSocketHandshake.validateRequest(request)
    } catch {
      var headers: HTTPHeaders = ["content-length": "0", "connection": "close"]
      if request.headers["sec-websocket-version"] != "13" {
        headers["sec-websocket-version"] = "13"
      }
      await write(HTTPResponseHead(status: 400, reason: "Bad Request", headers: headers).serialized)
      stream.value.close()
      throw ServerBeeTransportError(.handshakeInvalid, error.detail)
    }
    let negotiated =
      options.compression
      ? PerMessageDeflateParameters.negotiate(offers: request.headers["sec-websocket-extensions"])
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

  /// Answers with a plain HTTP response instead of upgrading, then closes the socket.
  /// - Parameters:
  ///   - head: The response head; `content-length` and `connection: close` are added.
  ///   - body: The body; empty by default.
  package func respond(_ head: HTTPResponseHead, body: [UInt8] = []) async {
    guard (try? claim()) != nil else { return }
    var head = head
    head.headers["content-length"] = String(body.count)
    head.headers["connection"] = "close"
    await write(head.serialized + body)
    stream.value.close()
  }

  private func claim() throws {
    let first = used.withLock { used in
      defer { used = true }
      return !used
    }
    guard first else {
      throw ServerBeeTransportError(.connectionClosed, "the upgrade was already answered")
    }
  }

  private func write(_ bytes: [UInt8]) async {
    let stream = stream
    let wake = wake
    _ = try? await BlockingIO.run(wake: wake) {
      try BlockingIO.writeAll(
        bytes, to: stream.value, deadline: ContinuousClock.now.advanced(by: .seconds(5)), wake: wake
      )
    }
  }
}
