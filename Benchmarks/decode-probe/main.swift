import RealtimeStream
import ServerBeeModels

// decode-probe FULL_SYNC.json COUNT
//
// A process that only decodes the live stream, as a widget or a small monitor would: it links
// RealtimeStream (and what that pulls in) and nothing else, decodes one `full_sync` frame COUNT
// times and prints its own peak RSS (VmHWM). Documentation/Performance.md §1: ≤ 25 MiB for
// full_sync × 100. Run it with COUNT 0 too: that is the floor of such a process before it decodes
// anything.
//
//   swift build -c release --product decode-probe
//   .build/release/decode-probe Benchmarks/payloads/full_sync_1000.json 100
//
// Like the modules it links, it needs only FoundationEssentials where that exists.
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Writes a line to standard error.
func printError(_ text: String) {
  let bytes = Array((text + "\n").utf8)
  _ = write(2, bytes, bytes.count)
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]), count >= 0,
  let frame = FileManager.default.contents(atPath: arguments[1])
else {
  printError("usage: decode-probe FULL_SYNC.json COUNT")
  exit(2)
}

var servers = 0
for _ in 0..<count {
  guard case .fullSync(let sync)? = try? LiveFrameDecoder.decode(frame) else {
    printError("decode-probe: not a full_sync frame")
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
// MiB with one decimal, rounded half up (what `%.1f` printed).
let tenths = (peak * 10 + 512) / 1024
print(
  "decode-probe: \(count) decodes of \(servers) servers; peak RSS \(peak) KiB "
    + "(\(tenths / 10).\(tenths % 10) MiB)")
