// decode-probe FULL_SYNC.json COUNT
//
// A process that only decodes the live stream, as a widget or a small monitor would: it links
// RealtimeStream (and what that pulls in) and nothing else, decodes one `full_sync` frame COUNT
// times and prints its own peak RSS (VmHWM). DESIGN §7 / issue #13: ≤ 25 MiB for full_sync × 100.
// Run it with COUNT 0 too: that is the floor of such a process before it decodes anything.
//
//   swift build -c release --product decode-probe
//   .build/release/decode-probe Benchmarks/payloads/full_sync_1000.json 100
import Foundation
import RealtimeStream
import ServerBeeModels

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]), count >= 0,
  let frame = FileManager.default.contents(atPath: arguments[1])
else {
  FileHandle.standardError.write(Data("usage: decode-probe FULL_SYNC.json COUNT\n".utf8))
  exit(2)
}

var servers = 0
for _ in 0..<count {
  guard case .fullSync(let sync)? = try? LiveFrameDecoder.decode(frame) else {
    FileHandle.standardError.write(Data("decode-probe: not a full_sync frame\n".utf8))
    exit(1)
  }
  servers = sync.servers.count
}

/// A `/proc/self/status` field in KiB (Linux), or 0.
func statusField(_ name: String) -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return 0
  }
  for line in status.split(separator: "\n") where line.hasPrefix(name) {
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
      ?? 0
  }
  return 0
}
let peak = statusField("VmHWM:")
print(
  "decode-probe: \(count) decodes of \(servers) servers; peak RSS \(peak) KiB "
    + String(format: "(%.1f MiB)", Double(peak) / 1024))
