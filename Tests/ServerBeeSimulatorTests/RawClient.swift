import Foundation
import ServerBeeTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A minimal blocking TCP client for loopback tests (HTTP/1.1 and RFC 6455 client frames).
final class RawClient {
  let fd: Int32
  var buffer: [UInt8] = []

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

  /// Reads more bytes; false on timeout or end of stream. The wait runs on its own thread, so
  /// the in-process server keeps the cooperative pool.
  func fill(timeout: TimeInterval = 5) async -> Bool {
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

  /// Reads one HTTP response: (status, headers text, body).
  func response(timeout: TimeInterval = 5) async -> (Int, String, [UInt8])? {
    while true {
      let text = Array(buffer)
      if let end = Self.find(text, [13, 10, 13, 10]) {
        let head = String(decoding: text[..<end], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        var length = 0
        for line in head.split(separator: "\r\n")
        where line.lowercased().hasPrefix("content-length:") {
          length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
        }
        if status == 101 { length = 0 }
        if text.count >= end + 4 + length {
          buffer.removeFirst(end + 4 + length)
          return (status, head, Array(text[(end + 4)..<(end + 4 + length)]))
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

  /// Sends the WebSocket upgrade for `/api/ws/servers`; returns the HTTP status.
  func upgrade(bearer: String?, cookie: String? = nil) async -> Int {
    var request = "GET /api/ws/servers HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
    if let cookie { request += "Cookie: session_token=\(cookie)\r\n" }
    request += "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    request += "Sec-WebSocket-Version: 13\r\n"
    if let bearer { request += "Authorization: Bearer \(bearer)\r\n" }
    send(request + "\r\n")
    return await response()?.0 ?? 0
  }

  /// Reads one server frame: (opcode, payload).
  func frame(timeout: TimeInterval = 5) async -> (UInt8, [UInt8])? {
    while true {
      if buffer.count >= 2 {
        var length = Int(buffer[1] & 0x7f)
        var offset = 2
        if length == 126, buffer.count >= 4 {
          length = Int(buffer[2]) << 8 | Int(buffer[3])
          offset = 4
        } else if length == 127, buffer.count >= 10 {
          length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
          offset = 10
        }
        if length < 126 || offset > 2, buffer.count >= offset + length {
          let opcode = buffer[0] & 0x0f
          let payload = Array(buffer[offset..<(offset + length)])
          buffer.removeFirst(offset + length)
          return (opcode, payload)
        }
      }
      guard await fill(timeout: timeout) else { return nil }
    }
  }

  /// Reads frames until a text frame and returns its JSON object.
  func json(timeout: TimeInterval = 5) async -> [String: Any]? {
    guard let (opcode, payload) = await frame(timeout: timeout), opcode == 1 else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any]
  }

  /// Sends a masked client frame.
  func sendFrame(opcode: UInt8, _ payload: [UInt8]) {
    let mask: [UInt8] = [1, 2, 3, 4]
    var bytes: [UInt8] = [0x80 | opcode, 0x80 | UInt8(payload.count)]
    bytes += mask
    bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    send(bytes)
  }
}
