import Foundation
import ServerBeeModels
import ServerBeeTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs blocking setup work (resolve, connect, TLS, handshake, accept) on its own Foundation
/// `Thread`, so it never occupies a thread of Swift concurrency's cooperative pool. Cancelling
/// the awaiting task cancels the wake pipe, which the work polls alongside its socket.
package enum BlockingIO {
  /// Hands a non-`Sendable` value from the setup thread to the awaiting task; the setup thread
  /// never touches it after handing it over, so only one thread uses it at a time.
  package final class Transfer<Value>: @unchecked Sendable {
    package let value: Value
    init(_ value: Value) { self.value = value }
  }

  package static func run<Value>(
    wake: WakePipe, _ body: @escaping @Sendable () throws -> Value
  ) async throws -> Transfer<Value> {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Transfer<Value>, any Error>) in
        let thread = Thread {
          do {
            continuation.resume(returning: Transfer(try body()))
          } catch {
            continuation.resume(throwing: error)
          }
        }
        thread.name = "ServerBeeTransport.setup"
        thread.start()
      }
    } onCancel: {
      wake.cancel()
    }
  }

  /// Writes all of `bytes`, waiting for writability until `deadline`.
  package static func writeAll(
    _ bytes: [UInt8], to stream: any ByteStream, deadline: ContinuousClock.Instant, wake: WakePipe
  ) throws {
    var offset = 0
    while offset < bytes.count || stream.hasPendingOutput {
      if offset < bytes.count {
        offset += try bytes.withUnsafeBytes {
          try stream.write(UnsafeRawBufferPointer(rebasing: $0[offset...]))
        }
      }
      let flushed = try stream.flush()
      if offset == bytes.count && flushed { return }
      try wait(stream, events: Int16(POLLOUT), deadline: deadline, wake: wake)
    }
  }

  /// Reads one HTTP head; returns it and any bytes that followed it.
  package static func readHead(
    from stream: any ByteStream, deadline: ContinuousClock.Instant, wake: WakePipe,
    limits: HTTPHeadCodec.Limits = HTTPHeadCodec.Limits(), leftover initial: [UInt8] = []
  ) throws -> (head: [UInt8], leftover: [UInt8]) {
    var received = initial
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let length: Int?
      do {
        length = try HTTPHeadCodec.headLength(in: received, limits: limits)
      } catch .tooLarge {
        throw ServerBeeTransportError(.malformedHTTPHead, "the HTTP head is too large")
      } catch {
        throw ServerBeeTransportError(.malformedHTTPHead, "the HTTP head has a bare line feed")
      }
      if let length {
        return (Array(received[0..<length]), Array(received[length...]))
      }
      switch try buffer.withUnsafeMutableBytes({ try stream.read(into: $0) }) {
      case .bytes(let count): received.append(contentsOf: buffer[0..<count])
      case .endOfStream:
        throw ServerBeeTransportError(.connectionLost, "the peer closed before the HTTP head ended")
      case .wouldBlock:
        try wait(stream, events: Int16(POLLIN), deadline: deadline, wake: wake)
      }
    }
  }

  /// Reads a body of exactly `length` bytes, starting with the bytes that followed the head.
  /// - Returns: The body and any bytes after it.
  package static func readBody(
    length: Int, after initial: [UInt8], from stream: any ByteStream,
    deadline: ContinuousClock.Instant, wake: WakePipe
  ) throws -> (body: [UInt8], rest: [UInt8]) {
    var received = initial
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while received.count < length {
      switch try buffer.withUnsafeMutableBytes({ try stream.read(into: $0) }) {
      case .bytes(let count): received.append(contentsOf: buffer[0..<count])
      case .endOfStream:
        throw ServerBeeTransportError(.connectionLost, "the peer closed before the body ended")
      case .wouldBlock:
        try wait(stream, events: Int16(POLLIN), deadline: deadline, wake: wake)
      }
    }
    return (Array(received[0..<length]), Array(received[length...]))
  }

  private static func wait(
    _ stream: any ByteStream, events: Int16, deadline: ContinuousClock.Instant, wake: WakePipe
  ) throws {
    try wake.wait(
      for: stream.descriptor, events: events, until: deadline, what: "the HTTP exchange")
  }
}
