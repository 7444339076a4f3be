import Foundation
import ServerBeeModels
import ServerBeeTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The loopback HTTP/1.1 front-end: one accept thread plus one thread per connection.
///
/// Blocking socket I/O runs only on these dedicated threads, never on Swift's cooperative
/// pool. Limits: request head 16 KiB (431), body 1 MiB (413), an idle timeout between
/// keep-alive requests and the same budget for receiving one whole request (408), and a cap on
/// concurrent connections. ``stop()`` shuts every connection down and joins the threads.
final class HTTPListener: Sendable {
  let port: UInt16
  private let descriptor: Int32
  private let core: SimulatorCore
  private let tls: TLSServerContext?
  private let connections = Locked<[Int32: any ByteStream]>([:])
  private let stopping = Locked(false)
  private let finished = NSCondition()
  private let acceptDone = Locked(false)

  init(core: SimulatorCore, port: UInt16, tls: Simulator.TLSFiles?) throws {
    self.core = core
    self.tls = try tls.map {
      try TLSServerContext(certificate: $0.certificate.path, privateKey: $0.privateKey.path)
    }
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw ServerBeeSimulatorError(.listenFailed, "socket() failed") }
    var one: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0, listen(fd, 512) == 0 else {
      _ = close(fd)
      throw ServerBeeSimulatorError(.listenFailed, "cannot listen on 127.0.0.1:\(port)")
    }
    var actual = sockaddr_in()
    var actualLength = length
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
    }
    self.port = UInt16(bigEndian: actual.sin_port)
    descriptor = fd
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "serverbee-simulator-accept"
    thread.start()
  }

  private func acceptLoop() {
    defer {
      acceptDone.withLock { $0 = true }
      finished.lock()
      finished.broadcast()
      finished.unlock()
    }
    while !stopping.withLock({ $0 }) {
      guard Socket.waitReadable(descriptor, timeout: 0.2) else { continue }
      var address = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let client = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(descriptor, $0, &length) }
      }
      guard client >= 0 else { continue }
      var one: Int32 = 1
      _ = setsockopt(
        client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
      let remote = String(cString: inet_ntoa(address.sin_addr))
      let admitted = connections.withLock { open -> Bool in
        guard open.count < core.settings.maximumConnections else { return false }
        open[client] = PlainStream(descriptor: client)
        return true
      }
      guard admitted else {
        _ = close(client)
        continue
      }
      let thread = Thread { [self] in serve(client, remote: remote) }
      thread.stackSize = 512 * 1024
      thread.name = "serverbee-simulator-connection"
      thread.start()
    }
  }

  private func serve(_ client: Int32, remote: String) {
    var stream: (any ByteStream)? = PlainStream(descriptor: client)
    if let tls {
      stream = TLSStream(descriptor: client, context: tls, timeout: core.settings.idleTimeout)
      if let stream { connections.withLock { $0[client] = stream } }
    }
    if let stream {
      HTTPConnection(stream: stream, core: core, port: port, remote: remote, tls: tls != nil).run()
      stream.close()
    } else {
      _ = close(client)
    }
    connections.withLock { $0[client] = nil }
    finished.lock()
    finished.broadcast()
    finished.unlock()
  }

  func stop() {
    stopping.withLock { $0 = true }
    for stream in connections.withLock({ Array($0.values) }) { stream.shutdown() }
    core.hub.closeAll()
    let deadline = Date().addingTimeInterval(5)
    finished.lock()
    while !(acceptDone.withLock { $0 } && connections.withLock { $0.isEmpty }),
      Date() < deadline
    {
      for stream in connections.withLock({ Array($0.values) }) { stream.shutdown() }
      _ = finished.wait(until: min(deadline, Date().addingTimeInterval(0.1)))
    }
    finished.unlock()
    _ = close(descriptor)
  }
}

/// One keep-alive connection: parse a request, answer it, repeat; or hand over to WebSocket.
struct HTTPConnection {
  let stream: any ByteStream
  let core: SimulatorCore
  let port: UInt16
  let remote: String
  let tls: Bool

  struct Head {
    var method: String
    var target: String
    var version: String
    var headers: HTTPHeaders
  }

  enum Failure: Error {
    case closed
    case status(Int, String)
  }

  func run() {
    var buffer: [UInt8] = []
    while true {
      do {
        let (head, body) = try readRequest(&buffer)
        if head.method == "GET", head.target.hasPrefix("/api/ws/servers"),
          head.headers["upgrade"]?.lowercased() == "websocket"
        {
          WebSocketSession(stream: stream, core: core, head: head, remote: remote).run()
          return
        }
        let scheme = tls ? "https" : "http"
        guard let url = URL(string: "\(scheme)://127.0.0.1:\(port)\(head.target)") else {
          throw Failure.status(400, "Bad Request")
        }
        let request = HTTPRequest(
          method: HTTPMethod(rawValue: head.method), url: url, headers: head.headers,
          body: Data(body))
        let response = core.respond(request, remoteAddress: remote)
        let close =
          head.headers["connection"]?.lowercased() == "close" || head.version == "HTTP/1.0"
        guard write(response, close: close, headOnly: head.method == "HEAD"), !close else {
          return
        }
      } catch Failure.status(let status, let reason) {
        _ = write(HTTPResponse(status: status, body: Data(reason.utf8)), close: true)
        return
      } catch {
        return
      }
    }
  }

  /// Reads one request; the whole request must arrive within the idle timeout.
  private func readRequest(_ buffer: inout [UInt8]) throws -> (Head, [UInt8]) {
    let limit = core.settings.maximumHeadSize
    let deadline = Date().addingTimeInterval(core.settings.idleTimeout)
    var end: Int?
    while true {
      end = Self.headEnd(buffer)
      if end != nil { break }
      guard buffer.count <= limit else {
        throw Failure.status(431, "Request Header Fields Too Large")
      }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else {
        if buffer.isEmpty { throw Failure.closed }
        throw Failure.status(408, "Request Timeout")
      }
      guard let chunk = stream.read(upTo: 16 * 1024, timeout: remaining) else { continue }
      guard !chunk.isEmpty else { throw Failure.closed }
      buffer += chunk
    }
    guard let end, end <= limit else {
      throw Failure.status(431, "Request Header Fields Too Large")
    }
    let head = try Self.parseHead(Array(buffer[..<end]))
    buffer.removeFirst(end + 4)
    if head.headers["transfer-encoding"] != nil { throw Failure.status(411, "Length Required") }
    let length = Int(head.headers["content-length"] ?? "0") ?? -1
    guard length >= 0 else { throw Failure.status(400, "Bad Request") }
    guard length <= core.settings.maximumBodySize else {
      throw Failure.status(413, "Payload Too Large")
    }
    if head.headers["expect"]?.lowercased() == "100-continue", buffer.count < length {
      // libcurl (URLSession on Linux) waits for this before sending larger bodies.
      guard stream.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { throw Failure.closed }
    }
    while buffer.count < length {
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { throw Failure.status(408, "Request Timeout") }
      guard let chunk = stream.read(upTo: 64 * 1024, timeout: remaining) else { continue }
      guard !chunk.isEmpty else { throw Failure.closed }
      buffer += chunk
    }
    let body = Array(buffer.prefix(length))
    buffer.removeFirst(length)
    return (head, body)
  }

  static func headEnd(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for index in 0...(bytes.count - 4)
    where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13
      && bytes[index + 3] == 10
    {
      return index
    }
    return nil
  }

  static func parseHead(_ bytes: [UInt8]) throws -> Head {
    let text = String(decoding: bytes, as: UTF8.self)
    var lines = text.components(separatedBy: "\r\n")
    let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
    guard requestLine.count == 3, requestLine[1].hasPrefix("/"),
      requestLine[2].hasPrefix("HTTP/1.")
    else { throw Failure.status(400, "Bad Request") }
    var headers = HTTPHeaders()
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { throw Failure.status(400, "Bad Request") }
      let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
      let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
      headers.append(value, for: name)
    }
    return Head(
      method: String(requestLine[0]), target: String(requestLine[1]),
      version: String(requestLine[2]), headers: headers)
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

  func write(_ response: HTTPResponse, close: Bool, headOnly: Bool = false) -> Bool {
    var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
    for (name, value) in response.headers where name != "content-length" {
      head += "\(name): \(value)\r\n"
    }
    head += "content-length: \(response.body.count)\r\n"
    head += close ? "connection: close\r\n\r\n" : "connection: keep-alive\r\n\r\n"
    return stream.write(Array(head.utf8) + (headOnly ? [] : Array(response.body)))
  }
}
