// `serverbee-bench ws-codec`: WebSocket codec throughput (release build).
//
//   swift run -c release serverbee-bench ws-codec
//
// Parse + unmask: masked binary frames (server role, as the simulator sees client traffic) are
// fed to the decoder in 64 KiB reads, as a socket would deliver them. Inflate: permessage-deflate
// messages with context takeover through the message assembler, and small (about 500-byte)
// `update`-sized messages both ways, where per-message costs dominate. Prints median and best of
// 7 runs.
//
//   serverbee-bench ws-codec-count <inflate|deflate> COUNT
//
// processes COUNT small messages for `valgrind --tool=callgrind` (instruction counts do not move
// with machine load): run it with COUNT and with 0 and divide the difference by COUNT, as
// `Benchmarks/payloads/instructions.sh inflate 10000` does.
import Foundation
import ServerBeeSocketTransport
import ServerBeeTransport

enum WSCodecBenchmark {
  static func run() throws {
    print("ws-codec (7 runs each; median / best)")
    try parseAndUnmask(frameSize: 64 * 1024, frames: 256)
    try parseAndUnmask(frameSize: 100, frames: 100_000)
    try inflate()
    try smallMessages()
  }

  /// About 500-byte JSON texts shaped like one live `update` entry each, as the simulator and a
  /// ServerBee server send them once a second per server.
  static func smallTexts(_ count: Int) -> [[UInt8]] {
    (0..<count).map { index in
      let text =
        #"{"type":"update","servers":[{"id":"srv-\#(index % 1000)","name":"node-\#(index % 1000)","#
        + #""online":true,"last_active":\#(1_774_692_933 + index),"uptime":\#(25_505_996 + index),"#
        + #""cpu":\#(Double(index % 1000) / 10),"mem_used":\#(5_191_495_680 + index * 4099),"#
        + #""swap_used":960450560,"disk_used":\#(28_450_781_020 + index),"#
        + #""net_in_speed":\#(2_166_912 + index % 977),"net_out_speed":\#(88_037_112 + index % 313),"#
        + #""net_in_transfer":\#(index * 65_537),"net_out_transfer":\#(index * 32_771),"#
        + #""load1":\#(Double(index % 400) / 100),"load5":1.25,"load15":0.98,"#
        + #""tcp_conn":\#(index % 500),"udp_conn":12,"process_count":\#(200 + index % 50)}]}"#
      return Array(text.utf8)
    }
  }

  /// The per-message costs: `count` small messages compressed with context takeover (as a
  /// client's messages go out), and inflated through the message assembler (as the live stream
  /// comes in).
  static func smallMessages(count: Int = 10_000) throws {
    let texts = smallTexts(count)
    let plainBytes = texts.reduce(0) { $0 + $1.count }
    let deflateSeconds = try measure {
      let deflater = try RawDeflater()
      var produced = 0
      for text in texts { produced += deflater.compress(text).count }
      precondition(produced > 0, "deflated nothing")
    }
    report(
      "deflate \(plainBytes / count)-byte JSON messages (input)", bytes: plainBytes,
      seconds: deflateSeconds,
      extra: { String(format: "%.2f µs per message", $0 / Double(count) * 1e6) })
    let deflater = try RawDeflater()
    let messages = texts.map { deflater.compress($0) }
    let inflateSeconds = try measure {
      let produced = try inflateInOrder(messages)
      precondition(produced == plainBytes, "inflated \(produced) bytes")
    }
    report(
      "inflate \(plainBytes / count)-byte JSON messages (output)", bytes: plainBytes,
      seconds: inflateSeconds,
      extra: { String(format: "%.2f µs per message", $0 / Double(count) * 1e6) })
  }

  /// `serverbee-bench ws-codec-count <inflate|deflate> COUNT`: see the file comment.
  static func count() throws {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    guard arguments.count == 2, ["inflate", "deflate"].contains(arguments[0]),
      let count = Int(arguments[1]), count >= 0
    else {
      print("usage: serverbee-bench ws-codec-count <inflate|deflate> COUNT")
      exit(2)
    }
    // The same 1,000 texts in both runs, so the difference is the COUNT messages' work alone.
    let texts = smallTexts(1000)
    let deflater = try RawDeflater()
    var checksum = 0
    if arguments[0] == "deflate" {
      for index in 0..<count { checksum &+= deflater.compress(texts[index % texts.count]).count }
    } else {
      // One context-takeover stream of the 1,000 texts, compressed in both runs; inflated in
      // order, with a fresh inflater (as a new connection would have) each time round.
      let messages = texts.map { deflater.compress($0) }
      var assembler = WebSocketMessageAssembler(
        maxMessageSize: 1 << 24, inflater: try RawInflater())
      for index in 0..<count {
        if index > 0 && index % messages.count == 0 {
          assembler = WebSocketMessageAssembler(
            maxMessageSize: 1 << 24, inflater: try RawInflater())
        }
        let event = try assembler.handle(
          WebSocketFrame(rsv1: true, opcode: .text, payload: messages[index % messages.count]))
        if case .message(.text(let text))? = event { checksum &+= text.utf8.count }
      }
    }
    print("ws-codec-count \(arguments[0]) \(count): checksum \(checksum)")
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
      let produced = try inflateInOrder(messages)
      precondition(produced == plainBytes, "inflated \(produced) bytes")
    }
    report(
      "inflate 64 KiB JSON messages (ratio \(String(format: "%.1f", Double(plainBytes) / Double(compressedBytes))):1, output)",
      bytes: plainBytes, seconds: seconds, extra: nil)
  }

  /// Inflates one context-takeover stream of compressed text messages through a fresh message
  /// assembler, as a connection reads them, and returns the bytes of text produced.
  static func inflateInOrder(_ messages: [[UInt8]]) throws -> Int {
    var assembler = WebSocketMessageAssembler(maxMessageSize: 1 << 24, inflater: try RawInflater())
    var produced = 0
    for message in messages {
      let event = try assembler.handle(WebSocketFrame(rsv1: true, opcode: .text, payload: message))
      if case .message(.text(let text))? = event { produced += text.utf8.count }
    }
    return produced
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
