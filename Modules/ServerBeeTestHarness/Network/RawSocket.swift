import Foundation
package import ServerBeeServerKit
package import ServerBeeSocketTransport
import ServerBeeTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A raw TCP peer for bad-input tests of the native stack and the server: writes exactly the
/// bytes a test gives it.
package final class RawSocket: @unchecked Sendable {
  // @unchecked: used by one test task at a time; blocking calls run with short deadlines.
  /// The connected socket.
  package let stream: PlainStream
  private let wake: WakePipe
  private var buffered: [UInt8] = []

  /// How long one step may take before the test fails: generous, because a loaded two-core
  /// machine running every suite at once may take seconds to schedule the server under test;
  /// a working peer answers long before.
  package static let deadline = Duration.seconds(120)

  /// Wraps a connected socket.
  /// - Parameter stream: The socket.
  /// - Throws: What creating the wake pipe throws.
  package init(stream: PlainStream) throws {
    self.stream = stream
    wake = try WakePipe()
  }

  /// Connects to 127.0.0.1:`port`.
  /// - Parameter port: The port.
  /// - Returns: The connected peer.
  /// - Throws: ``ServerBeeTransportError`` when the connection fails.
  package static func connect(port: UInt16) async throws -> RawSocket {
    try await offPool {
      let wake = try WakePipe()
      let fd = try TCPConnector.connect(
        host: "127.0.0.1", port: port, deadline: .now.advanced(by: Self.deadline), wake: wake)
      return try RawSocket(stream: PlainStream(descriptor: fd))
    }
  }

  /// Accepts one connection on `listener`.
  /// - Parameter listener: The listener.
  /// - Returns: The accepted peer.
  /// - Throws: What accepting throws.
  package static func accept(_ listener: TCPListener) async throws -> RawSocket {
    let socket = try await listener.accept()
    guard let fd = socket.take() else { throw PeerError("socket already taken") }
    return try RawSocket(stream: PlainStream(descriptor: fd))
  }

  /// Writes all of `bytes`.
  /// - Parameter bytes: The bytes.
  /// - Throws: ``ServerBeeTransportError`` when the write fails or times out.
  package func write(_ bytes: [UInt8]) async throws {
    try await offPool {
      try BlockingIO.writeAll(
        bytes, to: self.stream, deadline: .now.advanced(by: Self.deadline), wake: self.wake)
    }
  }

  /// Reads one HTTP head (what follows it stays buffered).
  /// - Returns: The head's bytes.
  /// - Throws: ``ServerBeeTransportError`` when the read fails or times out.
  package func readHead() async throws -> [UInt8] {
    try await offPool {
      if let length = try? HTTPHeadCodec.headLength(in: self.buffered), length > 0 {
        defer { self.buffered.removeFirst(length) }
        return Array(self.buffered[0..<length])
      }
      let (head, leftover) = try BlockingIO.readHead(
        from: self.stream, deadline: .now.advanced(by: Self.deadline), wake: self.wake)
      self.buffered = leftover
      return head
    }
  }

  /// Reads one response: its status and its `content-length` body (the rest stays buffered).
  /// - Returns: The status and the body.
  /// - Throws: ``ServerBeeTransportError`` when the read fails or times out.
  package func readResponse() async throws -> (status: Int, body: [UInt8]) {
    let head = try HTTPHeadCodec.parseResponse(try await readHead())
    let length = Int(head.headers["content-length"] ?? "0") ?? 0
    return try await offPool {
      let (body, rest) = try BlockingIO.readBody(
        length: length, after: self.buffered, from: self.stream,
        deadline: .now.advanced(by: Self.deadline), wake: self.wake)
      self.buffered = rest
      return (head.status, body)
    }
  }

  /// Whether bytes or the end of the stream are waiting to be read, after waiting at most
  /// `timeout` for them.
  /// - Parameter timeout: The longest wait.
  /// - Returns: Whether bytes or the end of the stream are waiting.
  package func isReadable(within timeout: Duration) async -> Bool {
    if !buffered.isEmpty { return true }
    let milliseconds =
      Int32(timeout.components.seconds * 1000)
      + Int32(timeout.components.attoseconds / 1_000_000_000_000_000)
    let descriptor = stream.descriptor
    return
      (try? await offPool {
        var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        return Posix.poll(&fds, milliseconds: milliseconds) > 0
      }) ?? false
  }

  /// Reads until the peer closes (or the deadline passes); returns everything after the head.
  /// - Returns: The bytes read.
  package func readToEnd() async -> [UInt8] {
    (try? await offPool { self.readToEndBlocking() }) ?? []
  }

  private func readToEndBlocking() -> [UInt8] {
    var result = buffered
    var buffer = [UInt8](repeating: 0, count: 4096)
    let deadline = ContinuousClock.now.advanced(by: Self.deadline)
    while ContinuousClock.now < deadline {
      guard let read = try? buffer.withUnsafeMutableBytes({ try stream.read(into: $0) }) else {
        break
      }
      switch read {
      case .bytes(let count): result += buffer[0..<count]
      case .endOfStream: return result
      case .wouldBlock:
        // Wait for the next bytes (or the close) instead of sleeping between tries.
        do {
          try wake.wait(
            for: stream.descriptor, events: Int16(POLLIN), until: deadline, what: "the peer")
        } catch {
          return result
        }
      }
    }
    return result
  }

  /// A client upgrade request for `/` without extensions.
  /// - Parameter key: The `Sec-WebSocket-Key`.
  /// - Returns: The request's bytes.
  package static func upgradeRequest(key: String = "dGhlIHNhbXBsZSBub25jZQ==") -> [UInt8] {
    Array(
      ("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
  }
}
