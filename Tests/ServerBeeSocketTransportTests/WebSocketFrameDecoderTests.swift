import ServerBeeTransport
import Testing

@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

@Suite struct WebSocketFrameDecoderTests {
  static let maskKey: (UInt8, UInt8, UInt8, UInt8) = (0x37, 0xFA, 0x21, 0x3D)

  func decode(
    _ bytes: [UInt8], role: WebSocketRole = .client, max: Int = 1 << 24, compression: Bool = false
  ) throws(WebSocketProtocolFailure) -> [WebSocketFrame] {
    var decoder = WebSocketFrameDecoder(
      role: role, maxFramePayload: max, allowsCompression: compression)
    decoder.append(bytes)
    var frames: [WebSocketFrame] = []
    while let frame = try decoder.nextFrame() { frames.append(frame) }
    return frames
  }

  func failure(
    _ bytes: [UInt8], role: WebSocketRole = .client, max: Int = 1 << 24
  ) -> WebSocketProtocolFailure? {
    do {
      _ = try decode(bytes, role: role, max: max)
      return nil
    } catch { return error }
  }

  /// RFC 6455 §5.2: a length must use the minimal encoding (found by probes).
  @Test(arguments: [
    [0x82, 0x7E, 0x00, 0x05] + [UInt8](repeating: 1, count: 5),  // 5 in 16 bits
    [0x82, 0x7E, 0x00, 0x7D] + [UInt8](repeating: 1, count: 125),  // 125 in 16 bits
    [0x82, 0x7F, 0, 0, 0, 0, 0, 0, 0x00, 0x05] + [UInt8](repeating: 1, count: 5),  // 5 in 64
    [0x82, 0x7F, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + [UInt8](repeating: 1, count: 65535),
  ])
  func nonMinimalLengthsAreProtocolErrors(_ frame: [UInt8]) {
    let error = failure(frame)
    #expect(error?.closeCode == .protocolError)
    #expect(error?.detail.contains("not minimal") == true)
  }

  @Test func minimalLengthsAtTheBoundariesAreAccepted() throws {
    let sixteen = [0x82, 0x7E, 0x00, 0x7E] + [UInt8](repeating: 1, count: 126)
    let sixtyFour =
      [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00] + [UInt8](repeating: 1, count: 65536)
    #expect(try decode(sixteen).first?.payload.count == 126)
    #expect(try decode(sixtyFour).first?.payload.count == 65536)
  }

  // RFC 6455 §5.7 examples.
  @Test func rfcSingleUnmaskedTextFrame() throws {
    let frames = try decode(hex("81 05 48 65 6c 6c 6f"))
    #expect(frames == [WebSocketFrame(opcode: .text, payload: Array("Hello".utf8))])
  }

  @Test func rfcSingleMaskedTextFrameDecodesAtServerAndEncodesIdentically() throws {
    let wire = hex("81 85 37 fa 21 3d 7f 9f 4d 51 58")
    let frames = try decode(wire, role: .server)
    #expect(frames == [WebSocketFrame(opcode: .text, payload: Array("Hello".utf8))])
    let encoded = WebSocketFrame(opcode: .text, payload: Array("Hello".utf8))
      .encoded(maskKey: Self.maskKey)
    #expect(encoded == wire)
  }

  @Test func rfcFragmentedUnmaskedText() throws {
    let frames = try decode(hex("01 03 48 65 6c 80 02 6c 6f"))
    #expect(frames.map(\.fin) == [false, true])
    #expect(frames.map(\.opcode) == [.text, .continuation])
    var assembler = WebSocketMessageAssembler(maxMessageSize: 100)
    #expect(try assembler.handle(frames[0]) == nil)
    #expect(try assembler.handle(frames[1]) == .message(.text("Hello")))
  }

  @Test func rfcPingAndMaskedPong() throws {
    #expect(try decode(hex("89 05 48 65 6c 6c 6f"))[0].opcode == .ping)
    let pong = try decode(hex("8a 85 37 fa 21 3d 7f 9f 4d 51 58"), role: .server)
    #expect(pong == [WebSocketFrame(opcode: .pong, payload: Array("Hello".utf8))])
  }

  @Test func rfc16And64BitLengths() throws {
    let medium = [UInt8](repeating: 7, count: 256)
    let mediumWire = hex("82 7e 01 00") + medium
    #expect(try decode(mediumWire) == [WebSocketFrame(opcode: .binary, payload: medium)])
    #expect(WebSocketFrame(opcode: .binary, payload: medium).encoded(maskKey: nil) == mediumWire)
    let large = [UInt8](repeating: 9, count: 65536)
    let largeWire = hex("82 7f 00 00 00 00 00 01 00 00") + large
    #expect(try decode(largeWire) == [WebSocketFrame(opcode: .binary, payload: large)])
    #expect(WebSocketFrame(opcode: .binary, payload: large).encoded(maskKey: nil) == largeWire)
  }

  @Test func truncatedInputWaitsForMoreBytesAtEveryCut() throws {
    let wire = WebSocketFrame(opcode: .binary, payload: Array(0..<200))
      .encoded(maskKey: Self.maskKey)
    for cut in 0..<wire.count {
      var decoder = WebSocketFrameDecoder(role: .server, maxFramePayload: 1000)
      decoder.append(wire[0..<cut])
      #expect(try decoder.nextFrame() == nil)
      decoder.append(wire[cut...])
      #expect(try decoder.nextFrame()?.payload == Array(0..<200))
    }
  }

  @Test func byteAtATimeFeedingYieldsEveryFrame() throws {
    var wire: [UInt8] = []
    for size in [0, 1, 125, 126, 70000] {
      WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 1, count: size))
        .encode(into: &wire, maskKey: Self.maskKey)
    }
    var decoder = WebSocketFrameDecoder(role: .server, maxFramePayload: 1 << 20)
    var sizes: [Int] = []
    for byte in wire {
      decoder.append([byte])
      while let frame = try decoder.nextFrame() { sizes.append(frame.payload.count) }
    }
    #expect(sizes == [0, 1, 125, 126, 70000])
    #expect(decoder.bufferedByteCount == 0)
  }

  @Test func maskingMatchesBytewiseXorForEveryLengthAndPhase() {
    let key: (UInt8, UInt8, UInt8, UInt8) = (0xA1, 0x02, 0xF3, 0x44)
    let keyBytes: [UInt8] = [0xA1, 0x02, 0xF3, 0x44]
    for length in 0..<80 {
      for phase in 0..<4 {
        let original = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var fast = original
        fast.withUnsafeMutableBytes { WebSocketMask.apply($0, key: key, phase: phase) }
        let slow = original.enumerated().map { $0.element ^ keyBytes[($0.offset + phase) & 3] }
        #expect(fast == slow, "length \(length) phase \(phase)")
      }
    }
  }

  @Test(arguments: [
    ("reserved RSV2", "a1 00"), ("reserved RSV3", "91 00"), ("opcode 3", "83 00"),
    ("opcode 0xB", "8b 00"), ("RSV1 without deflate", "c1 00"), ("fragmented ping", "09 00"),
    ("ping over 125", "89 7e 00 7e"), ("masked server frame", "81 80 00 00 00 00"),
    ("64-bit top bit", "82 7f 80 00 00 00 00 00 00 00"),
  ])
  func badFramesAreProtocolErrors(name: String, wire: String) {
    #expect(failure(hex(wire))?.closeCode == .protocolError, "\(name)")
  }

  @Test func unmaskedClientFrameIsRejectedByTheServer() {
    #expect(failure(hex("81 05 48 65 6c 6c 6f"), role: .server)?.closeCode == .protocolError)
  }

  @Test func oversizeLengthIsMessageTooBigBeforeThePayloadArrives() {
    #expect(failure(hex("82 7f 00 00 00 01 00 00 00 00"))?.closeCode == .messageTooBig)
    #expect(failure(hex("82 7e 04 00"), max: 1023)?.closeCode == .messageTooBig)
  }

  @Test func rsv1IsAcceptedOnDataFramesOnlyWhenCompressionIsOn() throws {
    #expect(try decode(hex("c1 00"), compression: true)[0].rsv1)
    #expect(throws: WebSocketProtocolFailure.self) { try decode(hex("c9 00"), compression: true) }
    #expect(throws: WebSocketProtocolFailure.self) {
      try decode(hex("41 00 c0 00"), compression: true)
    }
  }
}
