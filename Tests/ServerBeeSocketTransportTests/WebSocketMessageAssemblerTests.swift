import Foundation
import Testing

@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

@Suite struct WebSocketMessageAssemblerTests {
  func frame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true, rsv1: Bool = false)
    -> WebSocketFrame
  {
    WebSocketFrame(fin: fin, rsv1: rsv1, opcode: opcode, payload: payload)
  }

  func failure(_ frames: [WebSocketFrame], max: Int = 1000) -> WebSocketCloseCode? {
    var assembler = WebSocketMessageAssembler(maxMessageSize: max)
    do {
      for frame in frames { _ = try assembler.handle(frame) }
      return nil
    } catch { return error.closeCode }
  }

  @Test func controlFramesInterleaveWithFragments() throws {
    var assembler = WebSocketMessageAssembler(maxMessageSize: 100)
    #expect(try assembler.handle(frame(.binary, [1], fin: false)) == nil)
    #expect(try assembler.handle(frame(.ping, [9])) == .ping([9]))
    #expect(try assembler.handle(frame(.continuation, [2], fin: false)) == nil)
    #expect(try assembler.handle(frame(.pong, [])) == .pong([]))
    #expect(try assembler.handle(frame(.continuation, [3])) == .message(.binary(Data([1, 2, 3]))))
  }

  @Test func utf8SplitAcrossFragmentsIsAccepted() throws {
    let bytes = Array("κόσμε €𝄞".utf8)
    var assembler = WebSocketMessageAssembler(maxMessageSize: 100)
    for index in 0..<bytes.count - 1 {
      _ = try assembler.handle(
        frame(index == 0 ? .text : .continuation, [bytes[index]], fin: false))
    }
    let last = try assembler.handle(frame(.continuation, [bytes[bytes.count - 1]]))
    #expect(last == .message(.text("κόσμε €𝄞")))
  }

  @Test(arguments: [
    hex("ce bc e1 bd b9 ed a0 80"),  // surrogate
    hex("c0 af"),  // overlong
    hex("f4 90 80 80"),  // above U+10FFFF
    hex("ff"),
    hex("e2 82"),  // ends inside a character
  ])
  func invalidUTF8TextIs1007(bytes: [UInt8]) {
    #expect(failure([frame(.text, bytes)]) == .invalidFramePayloadData)
  }

  @Test func invalidUTF8InALaterFragmentFailsAtThatFragment() throws {
    var assembler = WebSocketMessageAssembler(maxMessageSize: 100)
    #expect(try assembler.handle(frame(.text, Array("ok".utf8), fin: false)) == nil)
    #expect(throws: WebSocketProtocolFailure.invalidPayload("text message is not valid UTF-8")) {
      try assembler.handle(frame(.continuation, [0xFF], fin: false))
    }
  }

  @Test func sequencingErrorsAre1002() {
    #expect(failure([frame(.continuation, [1])]) == .protocolError)
    #expect(failure([frame(.text, [0x61], fin: false), frame(.text, [0x61])]) == .protocolError)
  }

  @Test func messageOverTheLimitAcrossFragmentsIs1009() {
    let half = [UInt8](repeating: 1, count: 600)
    #expect(
      failure([frame(.binary, half, fin: false), frame(.continuation, half)]) == .messageTooBig)
  }

  @Test func closeFramesParseCodeAndReason() throws {
    var assembler = WebSocketMessageAssembler(maxMessageSize: 100)
    let payload = WebSocketMessageAssembler.closePayload(
      code: .tokenExpired, reason: "token expired")
    #expect(payload == hex("0f a1") + Array("token expired".utf8))
    #expect(
      try assembler.handle(frame(.close, payload))
        == .close(WebSocketClose(code: .tokenExpired, reason: "token expired")))
    #expect(
      try assembler.handle(frame(.close, [])) == .close(WebSocketClose(code: .noStatusReceived)))
  }

  @Test func badClosePayloadsAreRejected() {
    #expect(failure([frame(.close, [0x03])]) == .protocolError)
    #expect(failure([frame(.close, hex("03 ed"))]) == .protocolError)  // 1005 on the wire
    #expect(failure([frame(.close, hex("03 e7"))]) == .protocolError)  // 999
    #expect(failure([frame(.close, hex("03 e8 ff"))]) == .invalidFramePayloadData)
  }

  @Test func closeReasonIsCutTo123BytesOnACharacterBoundary() {
    let payload = WebSocketMessageAssembler.closePayload(
      code: .normalClosure, reason: String(repeating: "é", count: 100))
    #expect(payload.count == 2 + 122)
  }
}
