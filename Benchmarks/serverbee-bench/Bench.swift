// Shared measuring helpers for every serverbee-bench command.
import Foundation

enum Bench {
  struct Stats {
    var median: Double
    var minimum: Double
    var p90: Double
  }

  /// Runs `body` `warmup` times, then `iterations` times, timing each run; returns
  /// per-run seconds statistics (divided by `batch` when one run covers several operations).
  @discardableResult
  static func measure(
    _ label: String, iterations: Int, warmup: Int = 3, batch: Int = 1, unit: Unit = .microseconds,
    _ body: () throws -> Void
  ) rethrows -> Stats {
    for _ in 0..<warmup { try body() }
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    let clock = ContinuousClock()
    for _ in 0..<iterations {
      let start = clock.now
      try body()
      samples.append(seconds(clock.now - start) / Double(batch))
    }
    samples.sort()
    let stats = Stats(
      median: samples[samples.count / 2], minimum: samples[0], p90: samples[samples.count * 9 / 10])
    print(
      label.padding(toLength: 52, withPad: " ", startingAt: 0)
        + "median \(unit.format(stats.median))  min \(unit.format(stats.minimum))"
        + "  p90 \(unit.format(stats.p90))")
    return stats
  }

  enum Unit {
    case milliseconds, microseconds, nanoseconds

    func format(_ seconds: Double) -> String {
      switch self {
      case .milliseconds: return String(format: "%8.3f ms", seconds * 1e3)
      case .microseconds: return String(format: "%8.3f µs", seconds * 1e6)
      case .nanoseconds: return String(format: "%8.1f ns", seconds * 1e9)
      }
    }
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// The process's resident set now and at its peak, in KiB, from /proc/self/status.
  static func residentMemory() -> (current: Int, peak: Int) {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return (0, 0)
    }
    func field(_ name: String) -> Int {
      for line in status.split(separator: "\n") where line.hasPrefix(name) {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
      }
      return 0
    }
    return (field("VmRSS:"), field("VmHWM:"))
  }

  /// Keeps the optimizer from discarding a result.
  nonisolated(unsafe) static var sink = 0
}
