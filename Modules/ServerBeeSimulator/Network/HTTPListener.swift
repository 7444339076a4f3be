import Foundation
import ServerBeeModels
import ServerBeeTransport

/// The loopback HTTP/1.1 front-end on the transport's server pieces: a ``TCPListener`` accept
/// loop and one task per connection that takes keep-alive requests from an
/// ``HTTPServerConnection`` (plain or TLS) and answers them through ``SimulatorCore``, or hands
/// `/api/ws/servers` upgrades to ``LiveSession``.
///
/// Blocking socket work stays on the transport's own threads, never Swift's cooperative pool.
/// Limits: request head 16 KiB (431), body 1 MiB (413), the idle timeout between keep-alive
/// requests and the same budget for receiving one whole request (408), all answered by the
/// transport; and a cap on concurrent connections (further ones are closed at once).
/// ``stop()`` refuses new connections at once and closes every open one.
final class HTTPListener: Sendable {
  let port: UInt16
  private let listener: TCPListener
  private let core: SimulatorCore
  private let identity: TLSServerIdentity?
  private let state = Locked(State())

  private struct State {
    var stopping = false
    var admitted = 0
    var nextID = 0
    var open: [Int: HTTPServerConnection] = [:]
    var acceptLoop: Task<Void, Never>?
  }

  init(core: SimulatorCore, port: UInt16, tls: Simulator.TLSFiles?) throws {
    self.core = core
    do {
      identity = try tls.map {
        try TLSServerIdentity(certificateChainFile: $0.certificate, privateKeyFile: $0.privateKey)
      }
      listener = try TCPListener(host: "127.0.0.1", port: port, backlog: 512)
    } catch {
      throw ServerBeeSimulatorError(
        .listenFailed, "cannot listen on 127.0.0.1:\(port): \(error)")
    }
    self.port = listener.port
    let loop = Task { [self] in await acceptLoop() }
    state.withLock { $0.acceptLoop = loop }
  }

  private func acceptLoop() async {
    while let socket = try? await listener.accept() {
      let id = state.withLock { state -> Int? in
        guard !state.stopping, state.admitted < core.settings.maximumConnections else {
          return nil
        }
        state.admitted += 1
        state.nextID += 1
        return state.nextID
      }
      // Over the cap (or stopping): `socket` closes when it goes out of scope.
      guard let id else { continue }
      Task { [self] in
        await serve(socket, id: id)
        state.withLock {
          $0.admitted -= 1
          $0.open[id] = nil
        }
      }
    }
  }

  private func serve(_ socket: AcceptedSocket, id: Int) async {
    let idle = Duration.milliseconds(Int64(core.settings.idleTimeout * 1000))
    guard
      let connection = try? await HTTPServerConnection(
        socket: socket, tls: identity, handshakeTimeout: idle)
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
    let limits = HTTPHeadCodec.Limits(maxHeadBytes: core.settings.maximumHeadSize)
    let remote = connection.peerAddress.isEmpty ? "127.0.0.1" : connection.peerAddress
    while true {
      guard
        let request = try? await connection.next(
          timeout: idle, maxBodySize: core.settings.maximumBodySize, limits: limits)
      else { return }
      let head = request.head
      if head.method == "GET", head.target.hasPrefix("/api/ws/servers"),
        head.headers["upgrade"]?.lowercased() == "websocket"
      {
        await LiveSession(core: core, request: request).run()
        return
      }
      let scheme = connection.isTLS ? "https" : "http"
      guard let url = URL(string: "\(scheme)://127.0.0.1:\(port)\(head.target)") else {
        await request.respond(Self.head(400), body: Array("Bad Request".utf8))
        return
      }
      let call = HTTPRequest(
        method: HTTPMethod(rawValue: head.method), url: url, headers: head.headers,
        body: Data(request.body))
      // SQLite work stays off the cooperative pool, on the connection's own thread.
      guard
        let response = try? await connection.runBlocking({ [core] in
          core.respond(call, remoteAddress: remote)
        })
      else { return }
      await request.respond(
        Self.head(response.status, headers: response.headers), body: Array(response.body))
      guard request.keepsAlive else { return }
    }
  }

  /// Refuses new connections at once and closes every open one (WebSockets get 1001); their
  /// tasks finish on their own shortly after.
  func stop() {
    let (open, loop) = state.withLock { state in
      state.stopping = true
      return (Array(state.open.values), state.acceptLoop)
    }
    listener.close()
    loop?.cancel()
    core.hub.closeAll()
    for connection in open { connection.close() }
  }

  static func head(_ status: Int, headers: HTTPHeaders = [:]) -> HTTPResponseHead {
    HTTPResponseHead(status: status, reason: reason(status), headers: headers)
  }

  static func reason(_ status: Int) -> String {
    switch status {
    case 101: return "Switching Protocols"
    case 200: return "OK"
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 408: return "Request Timeout"
    case 409: return "Conflict"
    case 411: return "Length Required"
    case 413: return "Payload Too Large"
    case 415: return "Unsupported Media Type"
    case 422: return "Unprocessable Entity"
    case 429: return "Too Many Requests"
    case 431: return "Request Header Fields Too Large"
    default: return status >= 500 ? "Internal Server Error" : "Status"
    }
  }
}
