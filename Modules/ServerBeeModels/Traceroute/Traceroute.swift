/// The body of `POST /api/servers/{id}/traceroute` (Protocol/AppRoutes.md §7.1).
///
/// ```swift
/// let started = try await api.startTraceroute(
///   serverID: server.id, TracerouteRequest(target: "example.com", protocol: .tcp))
/// ```
public struct TracerouteRequest: Codable, Hashable, Sendable {
  /// A host name or address: ASCII letters, digits, `.`, `-` and `:` only.
  public var target: String
  /// How to probe; `nil` lets the server choose ICMP.
  public var `protocol`: TracerouteProtocol?

  /// Creates a request.
  /// - Parameters:
  ///   - target: The host to trace.
  ///   - protocol: How to probe (ICMP when `nil`).
  public init(target: String, protocol: TracerouteProtocol? = nil) {
    self.target = target
    self.protocol = `protocol`
  }

  private enum CodingKeys: String, CodingKey {
    case target, `protocol`
  }

  /// Writes `target`, and `protocol` when one is chosen.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(target, forKey: .target)
    if let `protocol` { try c.encode(`protocol`, forKey: .protocol) }
  }
}

/// The answer of `POST /api/servers/{id}/traceroute` (Protocol/AppRoutes.md §7.1): the id to
/// poll.
public struct TracerouteStarted: Codable, Hashable, Sendable {
  /// The run's id (a UUID).
  public var requestID: String

  /// Creates an answer.
  /// - Parameter requestID: The run's id.
  public init(requestID: String) { self.requestID = requestID }

  private enum CodingKeys: String, CodingKey {
    case requestID = "request_id"
  }
}

/// One hop of a traceroute (Protocol/AppRoutes.md §7.2). `hop`, `hostname` and `asn` are always
/// on the wire; the other members are left out when the agent did not measure them.
///
/// ```swift
/// for hop in snapshot.hops {
///   print(hop.hop, hop.ip ?? hop.ips?.first ?? "*", hop.avgMs.map { "\($0) ms" } ?? "")
/// }
/// ```
public struct TracerouteHop: Codable, Hashable, Sendable {
  /// The hop's position, from 1.
  public var hop: Int
  /// The reverse name, if any.
  public var hostname: String?
  /// The autonomous system (`AS64500`), if known.
  public var asn: String?
  /// The address (legacy agents).
  public var ip: String?
  /// First round trip in milliseconds (legacy agents).
  public var rtt1: Double?
  /// Second round trip (legacy agents).
  public var rtt2: Double?
  /// Third round trip (legacy agents).
  public var rtt3: Double?
  /// The addresses that answered at this hop; `nil` when none did.
  public var ips: [String]?
  /// Probes sent.
  public var totalSent: Int?
  /// Answers received.
  public var totalRecv: Int?
  /// Lost probes, percent (0–100).
  public var lossPct: Double?
  /// Fastest round trip, ms.
  public var bestMs: Double?
  /// Slowest round trip, ms.
  public var worstMs: Double?
  /// Mean round trip, ms.
  public var avgMs: Double?
  /// Standard deviation of the round trips, ms.
  public var stddevMs: Double?
  /// Jitter, ms.
  public var jitterMs: Double?

  /// Creates a hop.
  /// - Parameters:
  ///   - hop: Position, from 1.
  ///   - hostname: Reverse name.
  ///   - asn: Autonomous system.
  ///   - ip: Address (legacy).
  ///   - rtt1: First round trip (legacy).
  ///   - rtt2: Second round trip (legacy).
  ///   - rtt3: Third round trip (legacy).
  ///   - ips: Answering addresses.
  ///   - totalSent: Probes sent.
  ///   - totalRecv: Answers received.
  ///   - lossPct: Loss, percent.
  ///   - bestMs: Fastest.
  ///   - worstMs: Slowest.
  ///   - avgMs: Mean.
  ///   - stddevMs: Standard deviation.
  ///   - jitterMs: Jitter.
  public init(
    hop: Int, hostname: String? = nil, asn: String? = nil, ip: String? = nil,
    rtt1: Double? = nil, rtt2: Double? = nil, rtt3: Double? = nil, ips: [String]? = nil,
    totalSent: Int? = nil, totalRecv: Int? = nil, lossPct: Double? = nil, bestMs: Double? = nil,
    worstMs: Double? = nil, avgMs: Double? = nil, stddevMs: Double? = nil,
    jitterMs: Double? = nil
  ) {
    self.hop = hop
    self.hostname = hostname
    self.asn = asn
    self.ip = ip
    self.rtt1 = rtt1
    self.rtt2 = rtt2
    self.rtt3 = rtt3
    self.ips = ips
    self.totalSent = totalSent
    self.totalRecv = totalRecv
    self.lossPct = lossPct
    self.bestMs = bestMs
    self.worstMs = worstMs
    self.avgMs = avgMs
    self.stddevMs = stddevMs
    self.jitterMs = jitterMs
  }

  private enum CodingKeys: String, CodingKey {
    case hop, hostname, asn, ip, rtt1, rtt2, rtt3, ips
    case totalSent = "total_sent"
    case totalRecv = "total_recv"
    case lossPct = "loss_pct"
    case bestMs = "best_ms"
    case worstMs = "worst_ms"
    case avgMs = "avg_ms"
    case stddevMs = "stddev_ms"
    case jitterMs = "jitter_ms"
  }

  /// Writes `hop`, `hostname` and `asn` always (`null` when absent), the rest only when present,
  /// as the server does.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(hop, forKey: .hop)
    try c.encode(hostname, forKey: .hostname)
    try c.encode(asn, forKey: .asn)
    if let ip { try c.encode(ip, forKey: .ip) }
    if let rtt1 { try c.encode(rtt1, forKey: .rtt1) }
    if let rtt2 { try c.encode(rtt2, forKey: .rtt2) }
    if let rtt3 { try c.encode(rtt3, forKey: .rtt3) }
    if let ips, !ips.isEmpty { try c.encode(ips, forKey: .ips) }
    if let totalSent { try c.encode(totalSent, forKey: .totalSent) }
    if let totalRecv { try c.encode(totalRecv, forKey: .totalRecv) }
    if let lossPct { try c.encode(lossPct, forKey: .lossPct) }
    if let bestMs { try c.encode(bestMs, forKey: .bestMs) }
    if let worstMs { try c.encode(worstMs, forKey: .worstMs) }
    if let avgMs { try c.encode(avgMs, forKey: .avgMs) }
    if let stddevMs { try c.encode(stddevMs, forKey: .stddevMs) }
    if let jitterMs { try c.encode(jitterMs, forKey: .jitterMs) }
  }
}

/// `GET /api/servers/{id}/traceroute/{request_id}` (Protocol/AppRoutes.md §7.2): one run as
/// far as it got. Poll until ``isFinished``.
///
/// ```swift
/// let snapshot = try await api.traceroute(serverID: server.id, requestID: started.requestID)
/// if snapshot.isFinished { print(snapshot.hops.count, "hops", snapshot.error ?? "") }
/// ```
public struct TracerouteSnapshot: Codable, Hashable, Sendable {
  /// The run's id.
  public var requestID: String
  /// The traced host.
  public var target: String
  /// How it probes.
  public var `protocol`: TracerouteProtocol
  /// When it started, unix milliseconds.
  public var startedAt: Int64
  /// When it ended, unix milliseconds; `nil` while running.
  public var completedAt: Int64?
  /// The current round.
  public var round: Int
  /// The rounds the agent runs.
  public var totalRounds: Int
  /// Whether the agent has finished.
  public var completed: Bool
  /// The hops so far, by position.
  public var hops: [TracerouteHop]
  /// Why the run failed, if it did.
  public var error: String?

  /// Creates a snapshot.
  /// - Parameters:
  ///   - requestID: Run id.
  ///   - target: Traced host.
  ///   - protocol: Probe kind.
  ///   - startedAt: Start, ms.
  ///   - completedAt: End, ms.
  ///   - round: Current round.
  ///   - totalRounds: Rounds.
  ///   - completed: Finished.
  ///   - hops: Hops so far.
  ///   - error: Failure.
  public init(
    requestID: String, target: String, protocol: TracerouteProtocol, startedAt: Int64,
    completedAt: Int64?, round: Int, totalRounds: Int, completed: Bool, hops: [TracerouteHop],
    error: String?
  ) {
    self.requestID = requestID
    self.target = target
    self.protocol = `protocol`
    self.startedAt = startedAt
    self.completedAt = completedAt
    self.round = round
    self.totalRounds = totalRounds
    self.completed = completed
    self.hops = hops
    self.error = error
  }

  /// Whether polling can stop: the run completed or failed.
  public var isFinished: Bool { completed || error != nil }

  private enum CodingKeys: String, CodingKey {
    case requestID = "request_id"
    case target, `protocol`
    case startedAt = "started_at"
    case completedAt = "completed_at"
    case round
    case totalRounds = "total_rounds"
    case completed, hops, error
  }

  /// Writes every member, `null` included, in the server's key order.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(requestID, forKey: .requestID)
    try c.encode(target, forKey: .target)
    try c.encode(`protocol`, forKey: .protocol)
    try c.encode(startedAt, forKey: .startedAt)
    try c.encode(completedAt, forKey: .completedAt)
    try c.encode(round, forKey: .round)
    try c.encode(totalRounds, forKey: .totalRounds)
    try c.encode(completed, forKey: .completed)
    try c.encode(hops, forKey: .hops)
    try c.encode(error, forKey: .error)
  }
}

/// One line of `GET /api/servers/{id}/traceroute` (Protocol/AppRoutes.md §7.3), newest first.
///
/// ```swift
/// for run in try await api.tracerouteHistory(serverID: server.id) {
///   print(run.requestID, run.target, run.hopCount, run.hasError ? "failed" : "")
/// }
/// ```
public struct TracerouteSummary: Codable, Hashable, Sendable, Identifiable {
  /// The run's id.
  public var requestID: String
  /// The traced host.
  public var target: String
  /// How it probed.
  public var `protocol`: TracerouteProtocol
  /// Start, unix milliseconds.
  public var startedAt: Int64
  /// End, unix milliseconds; `nil` while running.
  public var completedAt: Int64?
  /// Hops recorded.
  public var hopCount: Int
  /// Whether it failed.
  public var hasError: Bool

  /// The run's id.
  public var id: String { requestID }

  /// Creates a line.
  /// - Parameters:
  ///   - requestID: Run id.
  ///   - target: Traced host.
  ///   - protocol: Probe kind.
  ///   - startedAt: Start, ms.
  ///   - completedAt: End, ms.
  ///   - hopCount: Hops.
  ///   - hasError: Failed.
  public init(
    requestID: String, target: String, protocol: TracerouteProtocol, startedAt: Int64,
    completedAt: Int64?, hopCount: Int, hasError: Bool
  ) {
    self.requestID = requestID
    self.target = target
    self.protocol = `protocol`
    self.startedAt = startedAt
    self.completedAt = completedAt
    self.hopCount = hopCount
    self.hasError = hasError
  }

  private enum CodingKeys: String, CodingKey {
    case requestID = "request_id"
    case target, `protocol`
    case startedAt = "started_at"
    case completedAt = "completed_at"
    case hopCount = "hop_count"
    case hasError = "has_error"
  }

  /// Writes every member, `null` included, in the server's key order.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(requestID, forKey: .requestID)
    try c.encode(target, forKey: .target)
    try c.encode(`protocol`, forKey: .protocol)
    try c.encode(startedAt, forKey: .startedAt)
    try c.encode(completedAt, forKey: .completedAt)
    try c.encode(hopCount, forKey: .hopCount)
    try c.encode(hasError, forKey: .hasError)
  }
}

/// The answer of `DELETE /api/servers/{id}/traceroute` (Protocol/AppRoutes.md §7.4).
public struct TracerouteCleared: Codable, Hashable, Sendable {
  /// How many runs were removed.
  public var deleted: Int

  /// Creates an answer.
  /// - Parameter deleted: Removed runs.
  public init(deleted: Int) { self.deleted = deleted }
}
