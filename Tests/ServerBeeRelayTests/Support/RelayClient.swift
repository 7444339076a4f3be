import Foundation
import ServerBeeTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A minimal TCP client for loopback tests: raw HTTP/1.1 requests (any header, partial bodies)
/// and RFC 6455 client frames. Every wait runs off the cooperative pool.
final class RelayClient {
  let fd: Int32
  private var buffer: [UInt8] = []

  /// One parsed HTTP response.
  struct Response {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
  }

  init?(port: UInt16) {
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

  func send(_ text: String) { send(Array(text.utf8)) }

  func send(_ bytes: [UInt8]) {
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

  /// Sends one request; `Content-Length` is added unless `contentLength` overrides it.
  func request(
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

  /// Reads more bytes; false on timeout or end of stream.
  func fill(timeout: TimeInterval) async -> Bool {
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

  /// Reads one HTTP response.
  func response(timeout: TimeInterval = 10) async -> Response? {
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
          return Response(status: status, headers: headers, body: body)
        }
      }
      guard await fill(timeout: timeout) else { return nil }
    }
  }

  static func find(_ haystack: [UInt8], _ needle: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for index in 0...(haystack.count - needle.count)
    where Array(haystack[index..<(index + needle.count)]) == needle {
      return index
    }
    return nil
  }

  /// Sends a WebSocket upgrade for the device stream; returns the response.
  func subscribe(token: String?, environment: String? = nil) async -> Response? {
    var headers: [(String, String)] = [
      ("Upgrade", "websocket"), ("Connection", "Upgrade"),
      ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
    ]
    if let token { headers.append(("X-ServerBee-Device-Token", token)) }
    if let environment { headers.append(("X-ServerBee-Environment", environment)) }
    request("GET", "/v1/devices/stream", headers: headers)
    return await response()
  }

  /// Reads one server frame: (opcode, payload); `nil` on timeout.
  func frame(timeout: TimeInterval = 10) async -> (UInt8, [UInt8])? {
    while true {
      if buffer.count >= 2 {
        var length = Int(buffer[1] & 0x7f)
        var offset = 2
        var complete = true
        if length == 126 {
          if buffer.count >= 4 {
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
          } else {
            complete = false
          }
        } else if length == 127 {
          if buffer.count >= 10 {
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
          } else {
            complete = false
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

  /// Reads the next text message.
  func text(timeout: TimeInterval = 10) async -> String? {
    guard let (opcode, payload) = await frame(timeout: timeout), opcode == 1 else { return nil }
    return String(decoding: payload, as: UTF8.self)
  }
}
