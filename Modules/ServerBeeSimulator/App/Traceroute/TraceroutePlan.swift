import ServerBeeModels

/// The hops the simulator's made-up agent finds for one run (Protocol/AppRoutes.md §7.2): a
/// pure function of the server, the target and the request id, revealed one hop every
/// ``hopInterval`` after the start and complete one interval after the last hop.
///
/// [inferred, the simulator's choice] 6 to 12 hops; the first is a private gateway, the last
/// answers as the target (its address when the target is one); one hop in the middle may
/// stay silent (no `ips`, 100 % loss); three probes a hop, one round.
struct TraceroutePlan {
  let serverID: String
  let target: String
  let requestID: String

  /// Time between two hops, in simulator nanoseconds (0.7 s).
  static let hopInterval: Int64 = 700_000_000
  /// Probes sent to each hop.
  static let probes = 3

  /// How many hops the run has.
  var hopCount: Int { 6 + Int(value("count", 0) % 7) }

  /// Nanoseconds from the start until the run is complete.
  var duration: Int64 { Int64(hopCount + 1) * Self.hopInterval }

  /// How many hops are known `elapsed` nanoseconds after the start.
  func revealed(after elapsed: Int64) -> Int {
    max(0, min(hopCount, Int(elapsed / Self.hopInterval)))
  }

  /// The hop at `position` (from 1) as the wire writes it: `hop`, `hostname`, `asn` always,
  /// the measured members only when there are some.
  func hop(_ position: Int) -> [(String, JSONValue)] {
    let last = position == hopCount
    let silentAt = 2 + Int(value("silent", 0) % UInt64(max(1, hopCount - 2)))
    if !last && position == silentAt && value("has-silent", 0) % 2 == 0 {
      return [
        ("hop", .integer(position)), ("hostname", .null), ("asn", .null),
        ("total_sent", .integer(Self.probes)), ("total_recv", .integer(0)),
        ("loss_pct", .number(100)),
      ]
    }
    let address: String
    let hostname: String?
    let asn: String?
    if position == 1 {
      address = "10.0.\(value("gw", 1) % 200).1"
      hostname = "gateway.local"
      asn = nil
    } else if last {
      address = Self.isAddress(target) ? target : "203.0.113.\(1 + value("dest", 0) % 250)"
      hostname = Self.isAddress(target) ? nil : target
      asn = "AS\(64_500 + value("asn", UInt64(position)) % 10)"
    } else {
      address = "198.51.100.\(1 + value("ip", UInt64(position)) % 250)"
      hostname = value("named", UInt64(position)) % 3 == 0 ? nil : "r\(position).transit.example"
      asn = "AS\(64_500 + value("asn", UInt64(position)) % 10)"
    }
    let base = 0.4 + Double(position) * 2.5 + unit("base", position) * 4
    let spread = 0.2 + unit("spread", position) * 3
    let best = Self.round(base)
    let worst = Self.round(base + spread)
    let average = Self.round(base + spread / 2)
    return [
      ("hop", .integer(position)), ("hostname", .text(hostname)), ("asn", .text(asn)),
      ("ips", .array([.string(address)])), ("total_sent", .integer(Self.probes)),
      ("total_recv", .integer(Self.probes)), ("loss_pct", .number(0)), ("best_ms", .number(best)),
      ("worst_ms", .number(worst)), ("avg_ms", .number(average)),
      ("stddev_ms", .number(Self.round(spread / 3))),
      ("jitter_ms", .number(Self.round(spread / 2))),
    ]
  }

  /// Whether `text` is an IPv4 or IPv6 address (digits and dots, or it has a colon).
  static func isAddress(_ text: String) -> Bool {
    text.contains(":")
      || text.split(separator: ".").count == 4 && text.allSatisfy { $0 == "." || $0.isNumber }
  }

  private static func round(_ value: Double) -> Double { (value * 100).rounded() / 100 }

  private func unit(_ salt: String, _ number: Int) -> Double {
    SeededNoise.unit("\(serverID)|\(target)|\(requestID)", salt, number)
  }

  /// Seeded bits for `salt` and `number`, keyed by the run's identity (``SeededNoise``).
  private func value(_ salt: String, _ number: UInt64) -> UInt64 {
    SeededNoise.bits("\(serverID)|\(target)|\(requestID)", salt, Int(truncatingIfNeeded: number))
  }
}
