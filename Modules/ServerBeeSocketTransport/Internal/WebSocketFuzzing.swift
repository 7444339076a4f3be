public import ServerBeeTransport

/// Entry points for the fuzz targets in `Fuzz/` (a separate package, so `package` declarations
/// are out of its reach): the RFC 6455 frame decoder and message assembler with
/// permessage-deflate, over public value types. Not API: import with `@_spi(Fuzzing)` only.
@_spi(Fuzzing) public enum WebSocketFuzzing {
  /// One decoded frame, payload unmasked.
  public struct Frame: Sendable, Hashable {
    /// FIN.
    public var fin: Bool
    /// RSV1 (compressed).
    public var rsv1: Bool
    /// The 4-bit opcode.
    public var opcode: UInt8
    /// The payload.
    public var payload: [UInt8]

    init(_ frame: WebSocketFrame) {
      (fin, rsv1, opcode, payload) = (frame.fin, frame.rsv1, frame.opcode.rawValue, frame.payload)
    }

    var frame: WebSocketFrame {
      WebSocketFrame(
        fin: fin, rsv1: rsv1, opcode: WebSocketOpcode(rawValue: opcode), payload: payload)
    }

    /// Whether the opcode is a control opcode.
    public var isControl: Bool { frame.opcode.isControl }

    /// The frame's wire form, masked with `maskKey` when given.
    /// - Parameter maskKey: The masking key (frames toward a server), or `nil`.
    /// - Returns: The encoded bytes.
    public func encoded(maskKey: (UInt8, UInt8, UInt8, UInt8)?) -> [UInt8] {
      frame.encoded(maskKey: maskKey)
    }
  }

  /// A protocol failure: the close code the connection fails with.
  public struct Failure: Error, Sendable, Hashable {
    /// 1002, 1007 or 1009.
    public var closeCode: WebSocketCloseCode
    /// The explanation.
    public var detail: String

    init(_ failure: WebSocketProtocolFailure) {
      (closeCode, detail) = (failure.closeCode, failure.detail)
    }
  }

  /// What an assembled frame produced.
  public enum Event: Sendable, Hashable {
    /// A whole data message.
    case message(WebSocketMessage)
    /// A ping.
    case ping([UInt8])
    /// A pong.
    case pong([UInt8])
    /// The peer's close.
    case close(WebSocketClose)
  }

  /// Decodes frames from reads, as a connection does.
  /// - Parameters:
  ///   - reads: The bytes of each read, in order.
  ///   - server: `true` to decode as a server (masked client frames), `false` as a client.
  ///   - maxFramePayload: The frame payload limit.
  ///   - compression: Whether permessage-deflate was negotiated (RSV1 allowed).
  /// - Returns: The frames, then the failure that ended decoding, if any.
  public static func decodeFrames(
    _ reads: [ArraySlice<UInt8>], server: Bool, maxFramePayload: Int, compression: Bool
  ) -> (frames: [Frame], failure: Failure?) {
    var decoder = WebSocketFrameDecoder(
      role: server ? .server : .client, maxFramePayload: maxFramePayload,
      allowsCompression: compression)
    var frames: [Frame] = []
    do {
      for read in reads {
        decoder.append(read)
        while let frame = try decoder.nextFrame() { frames.append(Frame(frame)) }
      }
      return (frames, nil)
    } catch {
      return (frames, Failure(error))
    }
  }

  /// The message assembler, with a zlib inflater when compression is on.
  public struct Assembler {
    private var assembler: WebSocketMessageAssembler

    /// Creates an assembler.
    /// - Parameters:
    ///   - maxMessageSize: The message limit (after inflation).
    ///   - compression: Whether permessage-deflate is on.
    ///   - noContextTakeover: Whether the peer resets its compressor per message.
    public init(maxMessageSize: Int, compression: Bool, noContextTakeover: Bool) {
      assembler = WebSocketMessageAssembler(
        maxMessageSize: maxMessageSize, inflater: compression ? try? RawInflater() : nil,
        resetInflaterPerMessage: noContextTakeover)
    }

    /// Handles one frame.
    /// - Parameter frame: A frame from ``WebSocketFuzzing/decodeFrames(_:server:maxFramePayload:compression:)``.
    /// - Returns: The event it completes, if any.
    /// - Throws: ``Failure``.
    public mutating func handle(_ frame: Frame) throws(Failure) -> Event? {
      do {
        switch try assembler.handle(frame.frame) {
        case .message(let message): return .message(message)
        case .ping(let data): return .ping(data)
        case .pong(let data): return .pong(data)
        case .close(let close): return .close(close)
        case nil: return nil
        }
      } catch {
        throw Failure(error)
      }
    }
  }

  /// The close payload a connection sends.
  /// - Parameters:
  ///   - code: The close code.
  ///   - reason: The reason (cut to 123 bytes).
  /// - Returns: The payload.
  public static func closePayload(code: WebSocketCloseCode, reason: String) -> [UInt8] {
    WebSocketMessageAssembler.closePayload(code: code, reason: reason)
  }

  /// permessage-deflate round trips, two ways: a compressor and decompressor pair reset before
  /// every message (a zlib stream costs far more to set up than a small message costs to
  /// compress), and one context-takeover stream that lives across messages until
  /// ``resetStream()``.
  public final class DeflateRoundTrip {
    private let deflater: RawDeflater
    private let inflater: RawInflater
    private let streamDeflater: RawDeflater
    private let streamInflater: RawInflater

    /// Creates the pairs.
    /// - Throws: ``Failure`` when zlib cannot initialise.
    public init() throws(Failure) {
      do {
        deflater = try RawDeflater()
        inflater = try RawInflater()
        streamDeflater = try RawDeflater()
        streamInflater = try RawInflater()
      } catch {
        throw Failure(error)
      }
    }

    /// Compresses `bytes` as one message (no context takeover) and inflates it again.
    /// - Parameter bytes: A message.
    /// - Returns: The inflated bytes.
    /// - Throws: ``Failure`` when inflating fails.
    public func roundTrip(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
      deflater.reset()
      inflater.reset()
      return try Self.inflate(deflater.compress(bytes), with: inflater, limit: bytes.count + 1)
    }

    /// Starts the context-takeover stream afresh, as a new connection would.
    public func resetStream() {
      streamDeflater.reset()
      streamInflater.reset()
    }

    /// Compresses `bytes` as the next message of the context-takeover stream (so it may refer
    /// back to earlier messages, and an empty one follows a sync flush) and inflates it as RFC
    /// 7692 §7.2.2 tells a receiver to: the tail `00 00 ff ff` always appended. Not through the
    /// message assembler, which forgives an empty payload that some senders write for an empty
    /// message: that would hide the same fault in ours.
    /// - Parameter bytes: A message.
    /// - Returns: The inflated bytes.
    /// - Throws: ``Failure`` when inflating fails.
    public func roundTripInStream(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
      try Self.inflate(
        streamDeflater.compress(bytes), with: streamInflater, limit: bytes.count + 1)
    }

    private static func inflate(
      _ payload: [UInt8], with inflater: RawInflater, limit: Int
    ) throws(Failure) -> [UInt8] {
      var output: [UInt8] = []
      do {
        try inflater.inflate(payload + [0, 0, 0xFF, 0xFF], into: &output, limit: limit)
      } catch {
        throw Failure(error)
      }
      return output
    }
  }
}
