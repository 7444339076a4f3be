// `serverbee-bench decode-count <full_sync|update|merge> COUNT [--servers N] [PAYLOAD_DIR]`:
// a fixed number of decodes for `valgrind --tool=callgrind` (instruction counts do not move
// with machine load, timings do). Run it with COUNT and with 0 and divide the difference by
// COUNT: loading the payloads and building the fleet are the same in both runs.
//
//   full_sync  decode `full_sync_<N>.json` COUNT times
//   update     decode COUNT `update` frames from `updates_<N>.jsonl` (cycling through them)
//   merge      as `update`, and apply each to a fleet built from `full_sync_<N>.json`
//
// Payloads come from `Benchmarks/payloads/gen_payloads.py --servers N DIR` (N defaults to 1000,
// DIR to `Benchmarks/payloads`).
import Foundation
import RealtimeStream
import ServerBeeModels

func runDecodeCountBenchmark() throws {
  var arguments = Array(CommandLine.arguments.dropFirst(2))
  var servers = 1000
  if let at = arguments.firstIndex(of: "--servers"), at + 1 < arguments.count,
    let value = Int(arguments[at + 1])
  {
    servers = value
    arguments.removeSubrange(at...(at + 1))
  }
  guard arguments.count >= 2, let count = Int(arguments[1]), count >= 0,
    ["full_sync", "update", "merge"].contains(arguments[0])
  else {
    print("usage: serverbee-bench decode-count <full_sync|update|merge> COUNT [--servers N] [DIR]")
    exit(2)
  }
  let directory = URL(fileURLWithPath: arguments.count > 2 ? arguments[2] : "Benchmarks/payloads")
  guard
    let fullSync = try? Data(
      contentsOf: directory.appendingPathComponent("full_sync_\(servers).json")),
    let lines = try? String(
      contentsOf: directory.appendingPathComponent("updates_\(servers).jsonl"), encoding: .utf8)
  else {
    print("decode-count: no payloads for \(servers) servers in \(directory.path)")
    print("  make them with: python3 Benchmarks/payloads/gen_payloads.py --servers \(servers)")
    exit(2)
  }
  let updates = lines.split(separator: "\n").map { Data($0.utf8) }
  var checksum = 0
  switch arguments[0] {
  case "full_sync":
    for _ in 0..<count {
      if case .fullSync(let sync) = try LiveFrameDecoder.decode(fullSync) {
        checksum &+= sync.servers.count
      }
    }
  case "update":
    for i in 0..<count {
      if case .update(let update) = try LiveFrameDecoder.decode(updates[i % updates.count]) {
        checksum &+= update.servers.count
      }
    }
  default:
    var fleet = FleetState()
    guard case .fullSync(let sync) = try LiveFrameDecoder.decode(fullSync) else { exit(1) }
    fleet.replace(with: sync)
    for i in 0..<count {
      fleet.apply(try LiveFrameDecoder.decode(updates[i % updates.count]))
    }
    checksum &+= fleet.servers.count
  }
  print("decode-count \(arguments[0]) ×\(count), \(servers) servers (checksum \(checksum))")
}
