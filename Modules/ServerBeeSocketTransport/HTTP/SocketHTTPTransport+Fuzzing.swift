import Foundation
import ServerBeeModels
public import ServerBeeTransport

extension SocketHTTPTransport {
  /// Reads one response from bytes in memory with the same reader ``send(_:)`` uses on a
  /// socket: the head (after any `1xx`), then a `content-length`, chunked or close-delimited
  /// body. For the fuzz target `fuzz-http-response`.
  /// - Parameters:
  ///   - bytes: Everything the server sends before closing.
  ///   - readSizes: How many bytes each read returns, cycled (a size below 1 counts as 1);
  ///     empty: all at once.
  ///   - method: The request method (`HEAD` responses have no body).
  ///   - limit: The largest body accepted.
  /// - Returns: The response.
  /// - Throws: ``ServerBeeTransportError`` (`malformedHTTPHead`, `responseTooLarge`,
  ///   `connectionLost`), as ``send(_:)`` does.
  @_spi(Fuzzing) public static func readResponse(
    from bytes: [UInt8], readSizes: [Int] = [], method: HTTPMethod = .get, limit: Int = 16 << 20
  ) throws -> HTTPResponse {
    let stream = MemoryByteStream(bytes, readSizes: readSizes)
    var reader = HTTPResponseReader(
      stream: stream, deadline: .now.advanced(by: .seconds(3600)), wake: try fuzzingWake.get(),
      limit: limit)
    return try reader.read(method: method)
  }

  /// Never waited on: an in-memory stream never returns `wouldBlock`.
  private static let fuzzingWake = Result { () throws(ServerBeeTransportError) in try WakePipe() }
}

/// A ``ByteStream`` over bytes in memory, read in the given sizes; never blocks.
final class MemoryByteStream: ByteStream {
  private let bytes: [UInt8]
  private let readSizes: [Int]
  private var offset = 0
  private var reads = 0

  init(_ bytes: [UInt8], readSizes: [Int]) {
    self.bytes = bytes
    self.readSizes = readSizes
  }

  var descriptor: Int32 { -1 }
  var hasPendingOutput: Bool { false }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(ServerBeeTransportError)
    -> StreamRead
  {
    guard offset < bytes.count else { return .endOfStream }
    var size = bytes.count - offset
    if !readSizes.isEmpty { size = max(1, readSizes[reads % readSizes.count]) }
    reads += 1
    let count = min(size, buffer.count, bytes.count - offset)
    bytes.withUnsafeBytes { source in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
    }
    offset += count
    return .bytes(count)
  }

  func write(_ bytes: UnsafeRawBufferPointer) throws(ServerBeeTransportError) -> Int {
    bytes.count
  }

  func flush() throws(ServerBeeTransportError) -> Bool { true }

  func close() {}
}
