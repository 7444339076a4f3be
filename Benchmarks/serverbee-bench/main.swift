// serverbee-bench: benchmarks that print figures (release build). Tests never assert timings.
//
//   swift run -c release serverbee-bench <command>
import Foundation

let commands: [String: () throws -> Void] = [
  "push": runPushBenchmark,
  "push-count": runPushCountBenchmark,
  "decode-count": runDecodeCountBenchmark,
  "realtime": runRealtimeBenchmark,
  "ws-codec": WSCodecBenchmark.run,
  "ws-codec-count": WSCodecBenchmark.count,
]

let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first, let command = commands[name] else {
  let list = commands.keys.sorted().joined(separator: ", ")
  print("usage: serverbee-bench <command>   commands: \(list.isEmpty ? "(none yet)" : list)")
  exit(arguments.isEmpty ? 0 : 2)
}
try command()
