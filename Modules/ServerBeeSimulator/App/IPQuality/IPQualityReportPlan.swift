import ServerBeeModels

/// The report and service results of one server's check number `generation`
/// (Protocol/AppRoutes.md §9): a pure function of the server id, the service key and the
/// generation, so every read of one check agrees.
///
/// [inferred, the simulator's choice] a documentation address per server; risk from 0 to 99,
/// `low` below 30, `medium` below 70, else `high`; a failed or blocked service has no latency.
struct IPQualityReportPlan {
  let serverID: String
  let generation: Int64

  private static let countries = [
    ("DE", "Hesse", "Frankfurt"), ("US", "California", "San Jose"), ("JP", "Tokyo", "Tokyo"),
    ("SG", "Singapore", "Singapore"), ("NL", "North Holland", "Amsterdam"),
  ]
  private static let statuses = ["unlocked", "unlocked", "unlocked", "restricted", "blocked"]

  /// The `ip_quality` object checked at `checkedAt` (nanoseconds).
  func report(checkedAt: Int64) -> JSONValue {
    let place = Self.countries[Int(value("country", 0) % UInt64(Self.countries.count))]
    let hosting = value("hosting", 0) % 4 != 0
    let score = Int(value("risk", 0) % 100)
    let level = score < 30 ? "low" : score < 70 ? "medium" : "high"
    let asn = 64_500 + Int(value("asn", 0) % 10)
    return .object([
      ("ip", .string("203.0.113.\(1 + value("ip", 0) % 250)")), ("asn", .string("AS\(asn)")),
      ("as_org", .string("Example Transit \(asn - 64_499)")), ("country", .string(place.0)),
      ("region", .string(place.1)), ("city", .string(place.2)),
      ("ip_type", .string(hosting ? "datacenter" : "residential")),
      ("is_proxy", .bool(score > 80)), ("is_vpn", .bool(score > 90)),
      ("is_hosting", .bool(hosting)), ("is_tor", .bool(false)), ("is_abuser", .bool(score > 70)),
      ("is_mobile", .bool(false)), ("risk_score", .integer(score)), ("risk_level", .string(level)),
      (
        "asn_abuser_score",
        value("abuser", 0) % 3 == 0 ? .null : .integer(Int(value("abuser", 1) % 100))
      ),
      ("abuse_email", .string("abuse@transit\(asn - 64_499).example")),
      ("checked_at", .string(timestamp(checkedAt, .zulu).formatted(.zulu))),
    ])
  }

  /// The result of `service` (its id and key) checked at `checkedAt`.
  func result(serviceID: String, key: String, checkedAt: Int64) -> JSONValue {
    let status = Self.statuses[Int(value(key, 0) % UInt64(Self.statuses.count))]
    let reached = status == "unlocked" || status == "restricted"
    let place = Self.countries[Int(value("country", 0) % UInt64(Self.countries.count))]
    return .object([
      ("id", .string("\(serverID):\(serviceID)")), ("server_id", .string(serverID)),
      ("service_id", .string(serviceID)), ("status", .string(status)),
      ("region", reached ? .string(place.0) : .null),
      ("latency_ms", reached ? .integer(Int(20 + value(key, 1) % 300)) : .null),
      ("detail", status == "restricted" ? .string("originals only") : .null),
      ("checked_at", .string(timestamp(checkedAt, .utcOffset).formatted(.utcOffset))),
    ])
  }

  /// Seeded bits for `salt` and `number`, keyed by the server and the generation (``SeededNoise``).
  private func value(_ salt: String, _ number: UInt64) -> UInt64 {
    SeededNoise.bits("\(serverID)|\(generation)", salt, Int(truncatingIfNeeded: number))
  }
}
