// The RFC 6455 frame decoder and message assembler, both roles (a client reading unmasked
// server frames, a server reading masked client frames), with and without permessage-deflate.
// Invariants: failures carry 1002, 1007 or 1009 only; the result does not depend on how the
// bytes are split into reads; every frame obeys the frame rules and re-encodes to bytes that
// decode to the same frame; an uncompressed message is its fragments joined; a close payload
// rebuilds to itself; every message survives a deflate/inflate round trip, both as a message on
// its own and as the next message of one context-takeover stream per input (read back through
// the message assembler).
import FuzzSupport
@_spi(Fuzzing) import ServerBeeSocketTransport
import ServerBeeTransport

let allowedCloseCodes: Set<UInt16> = [1002, 1007, 1009]
// One zlib pair for every round trip: libFuzzer calls the target on one thread.
nonisolated(unsafe) let deflate = try? WebSocketFuzzing.DeflateRoundTrip()

func checkFrame(
  _ frame: WebSocketFuzzing.Frame, server: Bool, maxSize: Int, compression: Bool
) {
  check([0, 1, 2, 8, 9, 10].contains(frame.opcode), "undefined opcode \(frame.opcode) accepted")
  check(frame.payload.count <= maxSize, "a payload over the limit was accepted")
  if frame.isControl {
    check(frame.fin && frame.payload.count <= 125, "a bad control frame was accepted")
  }
  if frame.rsv1 {
    check(compression && (frame.opcode == 1 || frame.opcode == 2), "RSV1 accepted out of place")
  }
  // Re-encode as the peer would have sent it (masked toward a server) and decode again.
  let key: (UInt8, UInt8, UInt8, UInt8)? = server ? (9, 8, 7, 6) : nil
  let again = WebSocketFuzzing.decodeFrames(
    [frame.encoded(maskKey: key)[...]], server: server, maxFramePayload: maxSize,
    compression: compression)
  check(again.frames == [frame] && again.failure == nil, "a re-encoded frame decodes differently")
}

func fuzzOne(_ bytes: [UInt8]) {
  var reader = FuzzInput(bytes)
  let control = reader.byte()
  let server = control & 1 != 0
  let compression = control & 2 != 0
  let maxSize = control & 4 == 0 ? 1 << 16 : 64
  let noContextTakeover = control & 8 != 0
  let chunk = Int(control >> 4) + 1
  let input = reader.remaining
  deflate?.resetStream()

  let whole = WebSocketFuzzing.decodeFrames(
    [input], server: server, maxFramePayload: maxSize, compression: compression)
  let reads = stride(from: input.startIndex, to: input.endIndex, by: chunk).map {
    input[$0..<min($0 + chunk, input.endIndex)]
  }
  let split = WebSocketFuzzing.decodeFrames(
    reads, server: server, maxFramePayload: maxSize, compression: compression)
  check(
    whole.frames == split.frames && whole.failure == split.failure,
    "the frames depend on how the input was split into reads of \(chunk)")
  if let failure = whole.failure {
    check(allowedCloseCodes.contains(failure.closeCode.rawValue), "close code \(failure.closeCode)")
  }

  var assembler = WebSocketFuzzing.Assembler(
    maxMessageSize: maxSize, compression: compression, noContextTakeover: noContextTakeover)
  var fragments: [UInt8] = []
  var compressed = false
  for frame in whole.frames {
    checkFrame(frame, server: server, maxSize: maxSize, compression: compression)
    if frame.opcode == 1 || frame.opcode == 2 {
      fragments = []
      compressed = frame.rsv1
    }
    if !frame.isControl { fragments += frame.payload }
    let event: WebSocketFuzzing.Event?
    do {
      event = try assembler.handle(frame)
    } catch {
      check(allowedCloseCodes.contains(error.closeCode.rawValue), "close code \(error.closeCode)")
      return
    }
    switch event {
    case .message(let message):
      let payload: [UInt8]
      switch message {
      case .text(let text): payload = Array(text.utf8)
      case .binary(let data): payload = Array(data)
      }
      check(payload.count <= maxSize, "a message over the limit was delivered")
      if !compressed { check(payload == fragments, "a message is not its fragments joined") }
      check(
        deflate.map { (try? $0.roundTrip(payload)) == payload } != false,
        "a message does not survive deflate and inflate")
      check(
        deflate.map { (try? $0.roundTripInStream(payload)) == payload } != false,
        "a message does not survive deflate and inflate after the input's earlier messages")
    case .close(let close):
      if close.code != .noStatusReceived {
        check(
          WebSocketFuzzing.closePayload(code: close.code, reason: close.reason) == frame.payload,
          "a close payload does not rebuild to itself")
      }
    case .ping(let data), .pong(let data):
      check(data == frame.payload, "a ping or pong lost its data")
    case nil:
      break
    }
  }
}

runFuzzer(fuzzOne)
