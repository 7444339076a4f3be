import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A relay that answers every request with `200` and a chunked body of `total` bytes, and
/// counts how many of them it managed to write before the reader hung up.
///
/// One thread, blocking sockets on 127.0.0.1; a small send buffer so the count is close to
/// what the reader actually took (plus the kernel's receive buffer on the other side).
final class FloodingRelay: Sendable {
  let port: UInt16
  private let listener: Int32
  private let written = Locked<Int>(0)
  private let finished = DispatchSemaphore(value: 0)

  init(total: Int = 100_000_000, chunk: Int = 16 * 1024) throws {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw Failure("socket") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(socket, 4) == 0 else {
      close(socket)
      throw Failure("bind/listen")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    listener = socket
    port = UInt16(bigEndian: address.sin_port)
    let written = self.written
    let finished = self.finished
    Thread {
      defer { finished.signal() }
      let connection = accept(socket, nil, nil)
      guard connection >= 0 else { return }
      defer { close(connection) }
      var small: Int32 = 16 * 1024
      _ = setsockopt(
        connection, SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size))
      // A stuck reader must not hang the test: a send blocked this long ends the flood.
      var limit = timeval(tv_sec: 10, tv_usec: 0)
      _ = setsockopt(
        connection, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
      // Read the request head and body (one small POST) before answering.
      var scratch = [UInt8](repeating: 0, count: 64 * 1024)
      _ = scratch.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
      func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
          let sent = bytes[offset...].withUnsafeBytes {
            Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
          }
          guard sent > 0 else { return false }
          offset += sent
          written.withLock { $0 += sent }
        }
        return true
      }
      guard send(Array("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n".utf8)) else {
        return
      }
      let piece =
        Array((String(chunk, radix: 16) + "\r\n").utf8) + [UInt8](repeating: 0x61, count: chunk)
        + Array("\r\n".utf8)
      var body = 0
      while body < total, send(piece) { body += chunk }
    }.start()
  }

  deinit { close(listener) }

  /// Waits until the flood has ended (the reader hung up, or everything was written).
  /// - Returns: The bytes written, or `nil` if it did not end within `seconds`.
  func bytesWritten(within seconds: Double) -> Int? {
    guard finished.wait(timeout: .now() + seconds) == .success else { return nil }
    return written.withLock { $0 }
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}

/// The outbox reads at most 64 KiB of a relay's answer (a verdict is under 100 bytes).
@Suite(.timeLimit(.minutes(2))) struct RelayAnswerLimitTests {
  static let eventID = "44444444-4444-4444-8444-444444444444"

  @Test func aHugeRelayAnswerIsCutOffAt64KiBAndRetried() async throws {
    let relay = try FloodingRelay()
    let h = try Harness {
      $0.relayURL = "http://127.0.0.1:\(relay.port)"
      $0.relayTimeout = 60  // the cap must end it, not the deadline
      $0.accessTTL = 7200
    }
    let device = try await h.pushDevice("admin")
    let sent = await h.sendTest(device.tokens.access, eventID: Self.eventID, revision: 2)
    try #require(sent.status == 200)

    #expect(try await h.simulator.runOutbox() == 1)
    let written = try #require(
      try await offPool { relay.bytesWritten(within: 30) }, "the flood never ended")
    // The reader stopped at 64 KiB (+ one 16 KiB chunk) and closed: the relay could write
    // only what the two sockets' buffers hold on top. The default 16 MiB cap let it write
    // over 16 MiB; the full answer is 100 MB.
    #expect(written > 64 * 1024)
    #expect(written < 4 << 20, "the relay wrote \(written) bytes")
    let status = await h.testStatus(device.tokens.access, eventID: Self.eventID)
    #expect(status.data?["outcome"]?.stringValue == "retryable")
    let row = try #require(
      try h.simulator.core.db.serial {
        try h.simulator.core.outboxRow(eventID: Self.eventID, installationID: "INST-1")
      })
    #expect(row.attempts == 1 && row.outcome == "retryable", "retried later like a lost answer")
    #expect(row.reason == "RelayUnavailable" && row.envelopeJSON != nil)
  }
}
