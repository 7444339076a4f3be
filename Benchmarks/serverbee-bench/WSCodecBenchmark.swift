// `serverbee-bench ws-codec`: WebSocket codec throughput (release build).
//
//   swift run -c release serverbee-bench ws-codec
//
// Parse + unmask: masked binary frames (server role, as the simulator sees client traffic) are
// fed to the decoder in 64 KiB reads, as a socket would deliver them. Inflate: permessage-deflate
// messages with context takeover through the message assembler. Prints median and best of 7 runs.
import Foundation
import ServerBeeSocketTransport
import ServerBeeTransport

enum WSCodecBenchmark {
  static func run() throws {
    print("ws-codec (7 runs each; median / best)")
    try parseAndUnmask(frameSize: 64 * 1024, frames: 256)
    try parseAndUnmask(frameSize: 100, frames: 100_000)
    try inflate()
  }

  static func parseAndUnmask(frameSize: Int, frames: Int) throws {
    var wire: [UInt8] = []
    wire.reserveCapacity((frameSize + 14) * frames)
    let payload = (0..<frameSize).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    for index in 0..<frames {
      let key = (UInt8(index & 0xFF), UInt8(0x5A), UInt8(0xC3), UInt8(0x11))
      WebSocketFrame(opcode: .binary, payload: payload).encode(into: &wire, maskKey: key)
    }
    let seconds = try measure {
      var decoder = WebSocketFrameDecoder(role: .server, maxFramePayload: 1 << 24)
      var decoded = 0
      var offset = 0
      while offset < wire.count {
        let end = min(offset + 64 * 1024, wire.count)
        decoder.append(wire[offset..<end])
        offset = end
        while let frame = try decoder.nextFrame() { decoded += frame.payload.count }
      }
      precondition(decoded == frameSize * frames, "decoded \(decoded) bytes")
    }
    report(
      "parse+unmask \(frameSize)-byte frames", bytes: wire.count, seconds: seconds,
      extra: { String(format: "%.2f M frames/s", Double(frames) / $0 / 1e6) })
  }

  static func inflate() throws {
    let deflater = try RawDeflater()
    var messages: [[UInt8]] = []
    var plainBytes = 0
    for index in 0..<256 {
      var text = ""
      var entry = 0
      while text.utf8.count < 64 * 1024 {
        entry += 1
        text +=
          #"{"id":"srv-\#(index)-\#(entry % 97)","cpu":\#(Double(entry % 1000) / 10),"#
          + #""mem_used":\#(entry * 4099),"online":true},"#
      }
      plainBytes += text.utf8.count
      messages.append(deflater.compress(Array(text.utf8)))
    }
    let compressedBytes = messages.reduce(0) { $0 + $1.count }
    let seconds = try measure {
      var assembler = WebSocketMessageAssembler(
        maxMessageSize: 1 << 24, inflater: try RawInflater())
      var produced = 0
      for message in messages {
        let event = try assembler.handle(
          WebSocketFrame(rsv1: true, opcode: .text, payload: message))
        if case .message(.text(let text))? = event { produced += text.utf8.count }
      }
      precondition(produced == plainBytes, "inflated \(produced) bytes")
    }
    report(
      "inflate 64 KiB JSON messages (ratio \(String(format: "%.1f", Double(plainBytes) / Double(compressedBytes))):1, output)",
      bytes: plainBytes, seconds: seconds, extra: nil)
  }

  static func measure(_ body: () throws -> Void) throws -> [Double] {
    try body()  // warm-up
    var seconds: [Double] = []
    for _ in 0..<7 {
      let start = ContinuousClock.now
      try body()
      let elapsed = start.duration(to: .now).components
      seconds.append(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }
    return seconds.sorted()
  }

  static func report(
    _ name: String, bytes: Int, seconds: [Double], extra: ((Double) -> String)?
  ) {
    let median = seconds[seconds.count / 2]
    let best = seconds[0]
    var line = String(
      format: "  %@: %.0f / %.0f MB/s (%.2f MiB per run, median %.2f ms)", name,
      Double(bytes) / median / 1e6, Double(bytes) / best / 1e6, Double(bytes) / 1_048_576,
      median * 1000)
    if let extra { line += ", " + extra(median) }
    print(line)
  }
}
