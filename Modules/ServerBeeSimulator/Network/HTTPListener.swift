import Foundation
import ServerBeeModels
import ServerBeeRoutes
import ServerBeeServerKit
import ServerBeeSocketTransport
import ServerBeeTransport

/// The loopback HTTP/1.1 front-end on the transport's shared ``HTTPServer`` (accept loop,
/// connection cap, keep-alive, stop): each request is answered through ``SimulatorCore``,
/// `/api/ws/servers` upgrades go to ``LiveSession`` and `/api/ws/docker/logs/{id}` upgrades to
/// ``DockerLogSession``.
///
/// Blocking socket work stays on the transport's own threads, never Swift's cooperative pool;
/// SQLite work runs on the connection's thread (``HTTPServerConnection/runBlocking(_:)``).
/// Limits: request head 16 KiB (431), body 1 MiB (413), the time to receive a request head
/// (10 s) and a whole request (the idle timeout, 30 s), both from the request's first byte (408),
/// the idle timeout between keep-alive requests, and the TLS handshake (the head timeout), all
/// enforced by the transport; and a cap on concurrent connections, where a new connection
/// displaces an idle or slow one (``HTTPServer``'s load shedding) or is closed at once.
/// ``stop()`` refuses new connections at once and closes every open one.
final class HTTPListener: Sendable {
  let port: UInt16
  private let server: HTTPServer
  private let core: SimulatorCore

  init(core: SimulatorCore, port: UInt16, tls: Simulator.TLSFiles?, maximumConnections: Int)
    throws
  {
    self.core = core
    let settings = core.settings
    let refusals = core.refusals
    do {
      let identity = try tls.map {
        try TLSServerIdentity(certificateChainFile: $0.certificate, privateKeyFile: $0.privateKey)
      }
      let idle = Duration.milliseconds(Int64(settings.idleTimeout * 1000))
      let head = Duration.milliseconds(Int64(settings.requestHeadTimeout * 1000))
      server = try HTTPServer(
        configuration: HTTPServer.Configuration(
          port: port, tls: identity, maximumConnections: maximumConnections,
          requestTimeout: idle, requestHeadTimeout: head, idleTimeout: idle,
          handshakeTimeout: head, maximumBodySize: settings.maximumBodySize,
          headLimits: HTTPHeadCodec.Limits(maxHeadBytes: settings.maximumHeadSize),
          onRefusal: { reason in
            refusals.refused(
              reason == .full
                ? "refusing connections with 503: all \(maximumConnections) are busy "
                  + "(WebSockets or requests being answered)"
                : "refusing connections with 503: out of file descriptors (limit "
                  + "\(ConnectionBudget.descriptorLimit); raise `ulimit -n`)")
          }))
    } catch {
      throw ServerBeeSimulatorError(
        .listenFailed, "cannot listen on 127.0.0.1:\(port): \(error)")
    }
    self.port = server.port
    let boundPort = server.port
    server.start { [core] request in
      await Self.handle(request, core: core, port: boundPort)
    }
  }

  private static func handle(_ request: HTTPServerRequest, core: SimulatorCore, port: UInt16)
    async
  {
    let head = request.head
    let connection = request.connection
    if head.method == "GET", head.target.hasPrefix(RouteCatalogue.Live.fleetStream.template.text),
      head.headers["upgrade"]?.lowercased() == "websocket"
    {
      await LiveSession(core: core, request: request).run()
      return
    }
    if head.method == "GET", head.headers["upgrade"]?.lowercased() == "websocket",
      let values = RouteCatalogue.Docker.dockerLogs.template.match(
        head.target.split(separator: "?", maxSplits: 1).first.map {
          $0.split(separator: "/").map(String.init)
        } ?? [])
    {
      await DockerLogSession(core: core, request: request, serverID: values[0]).run()
      return
    }
    let scheme = connection.isTLS ? "https" : "http"
    guard let url = URL(string: "\(scheme)://127.0.0.1:\(port)\(head.target)") else {
      await request.respond(Self.head(400), body: Array("Bad Request".utf8))
      return
    }
    let remote = connection.peerAddress.isEmpty ? "127.0.0.1" : connection.peerAddress
    let call = HTTPRequest(
      method: HTTPMethod(rawValue: head.method), url: url, headers: head.headers,
      body: Data(request.body))
    // SQLite work stays off the cooperative pool, on the connection's own thread.
    guard
      let response = try? await connection.runBlocking({ [core] in
        core.respond(call, remoteAddress: remote)
      })
    else {
      connection.close()
      return
    }
    await request.respond(
      Self.head(response.status, headers: response.headers), body: Array(response.body))
  }

  /// Refuses new connections at once and closes every open one (WebSockets get 1001); their
  /// tasks finish on their own shortly after.
  func stop() {
    server.stop()
    core.hub.closeAll()
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
    case 503: return "Service Unavailable"
    default: return status >= 500 ? "Internal Server Error" : "Status"
    }
  }
}
