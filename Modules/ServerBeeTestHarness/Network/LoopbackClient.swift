package import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A minimal TCP client for loopback tests of our own servers (simulator, relay): raw HTTP/1.1
/// requests (any header, partial or lying bodies) and RFC 6455 client frames, so a test can
/// send what no well-behaved client would. Every wait runs off the cooperative pool.
///
/// The default waits (``defaultTimeout``) are generous: they only end a test whose server never
/// answers, and a loaded two-core machine running every suite at once may take seconds to
/// schedule the server. A test that expects *no* answer passes its own short timeout.
///
/// ```swift
/// let client = try #require(LoopbackClient(port: port))
/// client.request("POST", "/v1/send", headers: [("Content-Type", "text/plain")])
/// #expect(await client.response()?.status == 415)
/// ```
package final class LoopbackClient {
  /// The connected socket.
  package let fd: Int32
  /// The default wait for an answer: 30 s.
  package static let defaultTimeout: TimeInterval = 30
  private var buffer: [UInt8] = []

  /// One parsed HTTP response.
  package struct Response {
    /// The status code.
    package var status: Int
    /// The head as text (status line and header lines).
    package var head: String
    /// The header fields, names lowercased.
    package var headers: [String: String]
    /// The `content-length` body.
    package var body: [UInt8]
    /// The body as UTF-8 text.
    package var text: String { String(decoding: body, as: UTF8.self) }
  }

  /// Connects to 127.0.0.1:`port`; `nil` when the connection is refused.
  package init?(port: UInt16) {
    #if canImport(Glibc)
      fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let ok = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard ok == 0 else {
      close(fd)
      return nil
    }
  }

  deinit { close(fd) }

  /// Sends text as UTF-8, as is.
  package func send(_ text: String) { send(Array(text.utf8)) }

  /// Sends bytes as they are (no SIGPIPE when the server closed).
  package func send(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return -1 }
        #if canImport(Glibc)
          return Glibc.send(fd, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
        #else
          return Darwin.send(fd, base + offset, bytes.count - offset, 0)
        #endif
      }
      guard sent > 0 else { return }
      offset += sent
    }
  }

  /// Sends one request; `Content-Length` is added for a body, a POST or a PUT, unless
  /// `contentLength` overrides it.
  package func request(
    _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = [],
    contentLength: Int? = nil
  ) {
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if !body.isEmpty || contentLength != nil || method == "POST" || method == "PUT" {
      head += "Content-Length: \(contentLength ?? body.count)\r\n"
    }
    send(Array((head + "\r\n").utf8) + body)
  }

  /// Reads more bytes; `false` on timeout or end of stream.
  package func fill(timeout: TimeInterval = LoopbackClient.defaultTimeout) async -> Bool {
    let fd = fd
    let chunk = try? await offPool { () -> [UInt8]? in
      var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
      guard poll(&fds, 1, Int32(timeout * 1000)) > 0 else { return nil }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let count = recv(fd, &chunk, chunk.count, 0)
      guard count > 0 else { return nil }
      return Array(chunk.prefix(count))
    }
    guard let chunk else { return false }
    buffer += chunk
    return true
  }

  /// Reads one HTTP response (a `101` has no body); `nil` on timeout or end of stream.
  package func response(timeout: TimeInterval = LoopbackClient.defaultTimeout) async -> Response? {
    while true {
      if let end = Self.find(buffer, [13, 10, 13, 10]) {
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
          guard let colon = line.firstIndex(of: ":") else { continue }
          headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
            .trimmingCharacters(in: .whitespaces)
        }
        let length = status == 101 ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        if buffer.count >= end + 4 + length {
          let body = Array(buffer[(end + 4)..<(end + 4 + length)])
          buffer.removeFirst(end + 4 + length)
          return Response(status: status, head: head, headers: headers, body: body)
        }
      }
      guard await fill(timeout: timeout) else { return nil }
    }
  }

  /// The first index of `needle` in `haystack`.
  package static func find(_ haystack: [UInt8], _ needle: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for index in 0...(haystack.count - needle.count)
    where Array(haystack[index..<(index + needle.count)]) == needle {
      return index
    }
    return nil
  }

  /// Reads one server frame: (opcode, payload); `nil` on timeout.
  package func frame(timeout: TimeInterval = LoopbackClient.defaultTimeout) async -> (
    UInt8, [UInt8]
  )? {
    while true {
      if buffer.count >= 2 {
        var length = Int(buffer[1] & 0x7f)
        var offset = 2
        var complete = true
        if length == 126 {
          complete = buffer.count >= 4
          if complete {
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
          }
        } else if length == 127 {
          complete = buffer.count >= 10
          if complete {
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
          }
        }
        if complete, buffer.count >= offset + length {
          let opcode = buffer[0] & 0x0f
          let payload = Array(buffer[offset..<(offset + length)])
          buffer.removeFirst(offset + length)
          return (opcode, payload)
        }
      }
      guard await fill(timeout: timeout) else { return nil }
    }
  }

  /// Reads the next frame and returns it as text when it is a text frame.
  package func text(timeout: TimeInterval = LoopbackClient.defaultTimeout) async -> String? {
    guard let (opcode, payload) = await frame(timeout: timeout), opcode == 1 else { return nil }
    return String(decoding: payload, as: UTF8.self)
  }

  /// Sends a masked client frame (payloads under 126 bytes).
  package func sendFrame(opcode: UInt8, _ payload: [UInt8]) {
    let mask: [UInt8] = [1, 2, 3, 4]
    var bytes: [UInt8] = [0x80 | opcode, 0x80 | UInt8(payload.count)]
    bytes += mask
    bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    send(bytes)
  }
}
