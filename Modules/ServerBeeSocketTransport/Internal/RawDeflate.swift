import CZlib
import ServerBeeTransport

/// Raw DEFLATE (no zlib header) compression for permessage-deflate, one stream per direction.
///
/// The stream lives across messages ("context takeover") unless ``reset()`` is called after each
/// message (`*_no_context_takeover`). Not thread-safe: the owner serialises calls.
package final class RawDeflater {
  private let stream: UnsafeMutablePointer<z_stream>
  /// zlib's output goes here first, 16 KiB at a time; allocated once per stream, so a message
  /// costs no allocation or zeroing beyond its own output.
  private let scratch: Scratch

  /// Creates a compressor.
  /// - Parameter windowBits: The LZ77 window (9...15; zlib cannot make raw 8-bit windows).
  /// - Throws: ``WebSocketProtocolFailure`` if zlib cannot initialise.
  package init(windowBits: Int = 15) throws(WebSocketProtocolFailure) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    scratch = Scratch()
    let bits = Int32(-min(max(windowBits, 9), 15))
    guard czlib_deflateInit2(stream, Z_DEFAULT_COMPRESSION, bits, 8, Z_DEFAULT_STRATEGY) == Z_OK
    else {
      stream.deallocate()
      throw .protocolError("zlib deflateInit2 failed")
    }
  }

  deinit {
    deflateEnd(stream)
    stream.deallocate()
  }

  /// Compresses one message: sync flush, then the trailing `00 00 ff ff` removed (RFC 7692 §7.2.1).
  /// - Parameter input: The message payload.
  /// - Returns: The compressed payload.
  package func compress(_ input: [UInt8]) -> [UInt8] {
    // An empty message is one empty stored block, `00` once the tail is removed (RFC 7692
    // §7.2.3.6). zlib would write nothing at all here: a second sync flush with no input in
    // between is a no-op to it, and an empty payload desynchronises the peer's inflater, which
    // appends `00 00 ff ff` to it and reads a stored block header that swallows the next
    // message. The stream is left untouched, so context takeover goes on as before.
    if input.isEmpty { return [0] }
    var output: [UInt8] = []
    output.reserveCapacity(input.count / 2 + 64)
    let chunk = scratch.buffer
    input.withUnsafeBufferPointer { source in
      // zlib never writes through `next_in`; its C type is only missing the `const`.
      stream.pointee.next_in = source.baseAddress.map { UnsafeMutablePointer(mutating: $0) }
      stream.pointee.avail_in = UInt32(source.count)
      repeat {
        stream.pointee.next_out = chunk.baseAddress
        stream.pointee.avail_out = UInt32(chunk.count)
        _ = deflate(stream, Z_SYNC_FLUSH)
        let produced = chunk.count - Int(stream.pointee.avail_out)
        output.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[0..<produced]))
      } while stream.pointee.avail_out == 0
      stream.pointee.next_in = nil
      stream.pointee.next_out = nil
    }
    if output.count >= 4 && output.suffix(4).elementsEqual([0, 0, 0xFF, 0xFF]) {
      output.removeLast(4)
    }
    return output
  }

  /// Starts a fresh stream (no context takeover).
  package func reset() { deflateReset(stream) }
}

/// Raw DEFLATE decompression for permessage-deflate, bounded so a small message cannot inflate
/// past the maximum message size (zip-bomb safe): output is produced in 16 KiB steps and the limit
/// is checked after each.
package final class RawInflater {
  private let stream: UnsafeMutablePointer<z_stream>
  /// zlib's output goes here first, 16 KiB at a time (the step the limit is checked at);
  /// allocated once per stream.
  private let scratch: Scratch

  /// Creates a decompressor with a 15-bit window, which accepts every smaller window too.
  /// - Throws: ``WebSocketProtocolFailure`` if zlib cannot initialise.
  package init() throws(WebSocketProtocolFailure) {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    scratch = Scratch()
    guard czlib_inflateInit2(stream, -15) == Z_OK else {
      stream.deallocate()
      throw .protocolError("zlib inflateInit2 failed")
    }
  }

  deinit {
    inflateEnd(stream)
    stream.deallocate()
  }

  /// Inflates `input`, appending to `output`, failing once `output` would exceed `limit`.
  /// - Parameters:
  ///   - input: Compressed bytes (a fragment, or the `00 00 ff ff` tail at message end).
  ///   - output: The message so far; inflated bytes are appended.
  ///   - limit: The largest total `output` size allowed.
  /// - Throws: ``WebSocketProtocolFailure``: 1009 past the limit, 1007 for corrupt data.
  package func inflate(
    _ input: [UInt8], into output: inout [UInt8], limit: Int
  ) throws(WebSocketProtocolFailure) {
    let chunk = scratch.buffer
    var failure: WebSocketProtocolFailure?
    input.withUnsafeBufferPointer { source in
      // zlib never writes through `next_in`; its C type is only missing the `const`.
      stream.pointee.next_in = source.baseAddress.map { UnsafeMutablePointer(mutating: $0) }
      stream.pointee.avail_in = UInt32(source.count)
      defer {
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
      }
      while true {
        stream.pointee.next_out = chunk.baseAddress
        stream.pointee.avail_out = UInt32(chunk.count)
        let status = CZlib.inflate(stream, Z_SYNC_FLUSH)
        let produced = chunk.count - Int(stream.pointee.avail_out)
        if produced > 0 {
          guard output.count + produced <= limit else {
            failure = .tooBig("inflated message exceeds \(limit) bytes")
            return
          }
          output.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[0..<produced]))
        }
        switch status {
        case Z_OK where stream.pointee.avail_out == 0 || stream.pointee.avail_in > 0: continue
        case Z_OK, Z_BUF_ERROR:
          return
        case Z_STREAM_END:
          // The peer ended its stream (BFINAL); later messages start a new one.
          inflateReset(stream)
          if stream.pointee.avail_in == 0 { return }
        default:
          failure = .invalidPayload("compressed data is corrupt")
          return
        }
      }
    }
    if let failure { throw failure }
  }

  /// Starts a fresh stream (the peer uses no context takeover).
  package func reset() { inflateReset(stream) }
}

/// A 16 KiB output buffer owned by one zlib stream, zeroed once when it is made.
private final class Scratch {
  let buffer: UnsafeMutableBufferPointer<UInt8>

  init() {
    buffer = .allocate(capacity: 16 * 1024)
    buffer.initialize(repeating: 0)
  }

  deinit { buffer.deallocate() }
}
