import Foundation
import Testing

@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

@Suite struct PerMessageDeflateTests {
  @Test func rfc7692HelloCompressesToTheRFCBytes() throws {
    let deflater = try RawDeflater()
    #expect(deflater.compress(Array("Hello".utf8)) == hex("f2 48 cd c9 c9 07 00"))
    // §7.2.3.2: with context takeover the second "Hello" refers back to the first.
    #expect(deflater.compress(Array("Hello".utf8)) == hex("f2 00 11 00 00"))
    deflater.reset()
    #expect(deflater.compress(Array("Hello".utf8)) == hex("f2 48 cd c9 c9 07 00"))
  }

  @Test func rfc7692HelloInflatesThroughTheAssembler() throws {
    var assembler = WebSocketMessageAssembler(maxMessageSize: 100, inflater: try RawInflater())
    let first = WebSocketFrame(rsv1: true, opcode: .text, payload: hex("f2 48 cd c9 c9 07 00"))
    #expect(try assembler.handle(first) == .message(.text("Hello")))
    // The compressed message split into two fragments (§7.2.3.1), then a takeover reference.
    let part1 = WebSocketFrame(fin: false, rsv1: true, opcode: .text, payload: hex("f2 48 cd"))
    let part2 = WebSocketFrame(opcode: .continuation, payload: hex("c9 c9 07 00"))
    #expect(try assembler.handle(part1) == nil)
    #expect(try assembler.handle(part2) == .message(.text("Hello")))
    let takeover = WebSocketFrame(rsv1: true, opcode: .text, payload: hex("f2 00 11 00 00"))
    #expect(try assembler.handle(takeover) == .message(.text("Hello")))
  }

  @Test func largeMessagesRoundTripWithContextTakeover() throws {
    let deflater = try RawDeflater()
    var assembler = WebSocketMessageAssembler(maxMessageSize: 1 << 24, inflater: try RawInflater())
    for round in 0..<3 {
      let text = (0..<40000).map { "line \($0 % 977) of round \(round)\n" }.joined()
      let compressed = deflater.compress(Array(text.utf8))
      #expect(compressed.count < text.utf8.count / 10)
      let event = try assembler.handle(
        WebSocketFrame(rsv1: true, opcode: .text, payload: compressed))
      #expect(event == .message(.text(text)))
    }
  }

  /// Both directions write through one 16 KiB scratch buffer per stream: a short message after
  /// a long one (and an empty one) must carry only its own bytes, however the buffer was left.
  @Test func aReusedScratchBufferCarriesOnlyEachMessagesOwnBytes() throws {
    let deflater = try RawDeflater()
    var assembler = WebSocketMessageAssembler(maxMessageSize: 1 << 24, inflater: try RawInflater())
    var random = SystemRandomNumberGenerator()
    // Random bytes do not compress, so the first message fills the buffer many times over.
    let noise = (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &random) }
    let messages: [[UInt8]] = [noise, Array("short".utf8), [], Array(noise.prefix(16 * 1024)), [7]]
    for message in messages {
      let event = try assembler.handle(
        WebSocketFrame(rsv1: true, opcode: .binary, payload: deflater.compress(message)))
      #expect(event == .message(.binary(Data(message))), "a \(message.count)-byte message")
    }
  }

  /// zlib writes nothing for a sync flush with no input since the last one; the payload must
  /// still be the empty block `00` (RFC 7692 §7.2.3.6), and the stream must go on afterwards.
  @Test func anEmptyMessageAfterOthersIsTheEmptyBlockAndTheStreamGoesOn() throws {
    let deflater = try RawDeflater()
    #expect(deflater.compress(Array("Hello".utf8)) == hex("f2 48 cd c9 c9 07 00"))
    #expect(deflater.compress([]) == [0])
    #expect(deflater.compress([]) == [0])
    #expect(deflater.compress(Array("Hello".utf8)) == hex("f2 00 11 00 00"))
    var assembler = WebSocketMessageAssembler(maxMessageSize: 100, inflater: try RawInflater())
    for payload in [hex("f2 48 cd c9 c9 07 00"), [0], hex("f2 00 11 00 00")] {
      let event = try assembler.handle(WebSocketFrame(rsv1: true, opcode: .text, payload: payload))
      #expect(event == .message(.text(payload == [0] ? "" : "Hello")))
    }
  }

  /// Some zlib-based senders do send an empty payload for an empty compressed message. It holds
  /// no DEFLATE data, so it is an empty message, and the next one still inflates.
  @Test func anEmptyCompressedPayloadIsAnEmptyMessageAndLeavesTheStreamAsItWas() throws {
    var assembler = WebSocketMessageAssembler(maxMessageSize: 100, inflater: try RawInflater())
    let frames = [
      WebSocketFrame(rsv1: true, opcode: .text, payload: hex("f2 48 cd c9 c9 07 00")),
      WebSocketFrame(rsv1: true, opcode: .text, payload: []),
      WebSocketFrame(fin: false, rsv1: true, opcode: .binary, payload: []),
      WebSocketFrame(opcode: .continuation, payload: []),
      WebSocketFrame(rsv1: true, opcode: .text, payload: hex("f2 00 11 00 00")),
    ]
    let events = try frames.map { try assembler.handle($0) }
    #expect(
      events == [
        .message(.text("Hello")), .message(.text("")), nil, .message(.binary(Data())),
        .message(.text("Hello")),
      ])
  }

  @Test func zipBombStopsAtTheMessageLimitWith1009() throws {
    let deflater = try RawDeflater()
    let bomb = deflater.compress([UInt8](repeating: 0, count: 20 << 20))
    #expect(bomb.count < 100_000)
    var assembler = WebSocketMessageAssembler(maxMessageSize: 16 << 20, inflater: try RawInflater())
    #expect(throws: WebSocketProtocolFailure.tooBig("inflated message exceeds 16777216 bytes")) {
      try assembler.handle(WebSocketFrame(rsv1: true, opcode: .binary, payload: bomb))
    }
  }

  @Test func corruptCompressedDataIs1007() throws {
    var assembler = WebSocketMessageAssembler(maxMessageSize: 100, inflater: try RawInflater())
    #expect(throws: WebSocketProtocolFailure.self) {
      try assembler.handle(WebSocketFrame(rsv1: true, opcode: .binary, payload: hex("ff ff ff ff")))
    }
  }

  @Test func clientAcceptsValidServerResponses() throws {
    #expect(try PerMessageDeflateParameters.acceptResponse(nil) == nil)
    let full = try PerMessageDeflateParameters.acceptResponse(
      "permessage-deflate; server_no_context_takeover; client_no_context_takeover; "
        + "server_max_window_bits=12")
    #expect(
      full
        == PerMessageDeflateParameters(
          serverNoContextTakeover: true, clientNoContextTakeover: true, serverMaxWindowBits: 12))
  }

  @Test(arguments: [
    "x-webkit-deflate-frame", "permessage-deflate; foo",
    "permessage-deflate; server_max_window_bits=16",
    "permessage-deflate; client_max_window_bits=10", "permessage-deflate, permessage-deflate",
    "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
  ])
  func clientRejectsBadServerResponses(header: String) {
    #expect(throws: HandshakeProblem.self) {
      try PerMessageDeflateParameters.acceptResponse(header)
    }
  }

  @Test func serverNegotiatesTheFirstAcceptableOffer() throws {
    let python = PerMessageDeflateParameters.negotiate(
      offers: "permessage-deflate; client_max_window_bits")
    #expect(python?.response == "permessage-deflate")
    let picky = PerMessageDeflateParameters.negotiate(
      offers: "permessage-deflate; server_max_window_bits=8, "
        + "permessage-deflate; server_no_context_takeover; client_no_context_takeover; "
        + "server_max_window_bits=10")
    #expect(
      picky?.response
        == "permessage-deflate; server_no_context_takeover; client_no_context_takeover; "
        + "server_max_window_bits=10")
    #expect(picky?.parameters.serverMaxWindowBits == 10)
    #expect(PerMessageDeflateParameters.negotiate(offers: "permessage-deflate; bogus=1") == nil)
    #expect(PerMessageDeflateParameters.negotiate(offers: nil) == nil)
  }

  /// Found by `fuzz-http-head`: a client-controlled header of 16 KiB took ~38 ms to parse
  /// Character by Character; it is now read on its UTF-8 bytes with the same results.
  @Test func extensionHeadersSplitOnTheirASCIISeparatorsOnly() {
    let long = String(repeating: "\u{301}", count: 4000)
    let parsed = PerMessageDeflateParameters.parseExtensions(
      " permessage-deflate ;\tserver_max_window_bits = \"10\" ,x\(long); a=\(long)b ,, ")
    #expect(parsed.count == 3 && parsed[2].name.isEmpty)  // the trailing " "
    #expect(parsed[0].name == "permessage-deflate")
    #expect(parsed[0].parameters.map(\.0) == ["server_max_window_bits"])
    #expect(parsed[0].parameters.map(\.1) == ["\"10\""])
    #expect(parsed[1].name == "x" + long)
    #expect(parsed[1].parameters.first?.1 == long + "b")
    #expect(
      PerMessageDeflateParameters.negotiate(offers: "x\(long), permessage-deflate")?.response
        == "permessage-deflate")
    #expect(
      PerMessageDeflateParameters.negotiate(
        offers: "permessage-deflate; server_max_window_bits=\(long)") == nil)
  }
}
