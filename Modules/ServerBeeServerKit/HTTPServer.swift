import Foundation
import ServerBeeModels
package import ServerBeeSocketTransport
import ServerBeeTransport

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
/// Limits: the request head (431), the body (413), the idle time between keep-alive requests and
/// the same budget for receiving one whole request (408), all answered by the connection with
/// ``Configuration/rejection``'s headers and body; connections over
/// ``Configuration/maximumConnections`` are closed at once. ``stop()`` refuses new connections at
/// once and closes every open one (WebSockets get 1001).
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
    /// The most connections served at once; 1024 by default.
    package var maximumConnections: Int
    /// The idle limit between keep-alive requests, and the budget for one whole request to
    /// arrive (408 when a started request does not complete in time); 30 s by default.
    package var requestTimeout: Duration
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

    /// Creates a configuration with the documented defaults.
    /// - Parameters:
    ///   - host: The IP address to bind.
    ///   - port: The port, or 0.
    ///   - tls: The TLS identity, or `nil`.
    ///   - maximumConnections: The connection cap.
    ///   - requestTimeout: The idle and whole-request limit.
    ///   - handshakeTimeout: The TLS handshake limit.
    ///   - maximumBodySize: The body cap.
    ///   - headLimits: The head limits.
    ///   - backlog: The listen backlog.
    ///   - rejection: The rejection headers and bodies.
    package init(
      host: String = "127.0.0.1", port: UInt16 = 0, tls: TLSServerIdentity? = nil,
      maximumConnections: Int = 1024, requestTimeout: Duration = .seconds(30),
      handshakeTimeout: Duration = .seconds(10), maximumBodySize: Int = 1 << 20,
      headLimits: HTTPHeadCodec.Limits = HTTPHeadCodec.Limits(), backlog: Int32 = 512,
      rejection: HTTPServerRejection.Provider? = nil
    ) {
      self.host = host
      self.port = port
      self.tls = tls
      self.maximumConnections = maximumConnections
      self.requestTimeout = requestTimeout
      self.handshakeTimeout = handshakeTimeout
      self.maximumBodySize = maximumBodySize
      self.headLimits = headLimits
      self.backlog = backlog
      self.rejection = rejection
    }
  }

  /// The bound port.
  package let port: UInt16
  /// Whether the server speaks TLS.
  package var isTLS: Bool { configuration.tls != nil }
  private let configuration: Configuration
  private let listener: TCPListener
  private let state = Locked(State())

  private struct State {
    var stopping = false
    var admitted = 0
    var nextID = 0
    var open: [Int: HTTPServerConnection] = [:]
    var acceptLoop: Task<Void, Never>?
  }

  /// Binds and listens; requests are served after ``start(_:)``.
  /// - Parameter configuration: The settings.
  /// - Throws: ``ServerBeeTransportError`` with `connectionFailed` or `invalidURL`.
  package init(configuration: Configuration) throws {
    self.configuration = configuration
    listener = try TCPListener(
      host: configuration.host, port: configuration.port, backlog: configuration.backlog)
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
      let id = state.withLock { state -> Int? in
        guard !state.stopping, state.admitted < configuration.maximumConnections else {
          return nil
        }
        state.admitted += 1
        state.nextID += 1
        return state.nextID
      }
      // Over the cap (or stopping): `socket` closes when it goes out of scope.
      guard let id else { continue }
      Task { [self] in
        await serve(socket, id: id, handler)
        state.withLock {
          $0.admitted -= 1
          $0.open[id] = nil
        }
      }
    }
  }

  private func serve(_ socket: AcceptedSocket, id: Int, _ handler: Handler) async {
    guard
      let connection = try? await HTTPServerConnection(
        socket: socket, tls: configuration.tls, handshakeTimeout: configuration.handshakeTimeout,
        rejection: configuration.rejection)
    else { return }
    let registered = state.withLock { state -> Bool in
      guard !state.stopping else { return false }
      state.open[id] = connection
      return true
    }
    guard registered else {
      connection.close()
      return
    }
    while true {
      guard
        let request = try? await connection.next(
          timeout: configuration.requestTimeout, maxBodySize: configuration.maximumBodySize,
          limits: configuration.headLimits)
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

  /// Refuses new connections at once and closes every open one (WebSockets get 1001); their
  /// tasks finish on their own shortly after.
  package func stop() {
    let (open, loop) = state.withLock { state in
      state.stopping = true
      return (Array(state.open.values), state.acceptLoop)
    }
    listener.close()
    loop?.cancel()
    for connection in open { connection.close() }
  }
}
