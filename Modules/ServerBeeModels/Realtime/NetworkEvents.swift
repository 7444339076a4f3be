/// A `network_probe_update` frame: one probe round's results for a server.
public struct NetworkProbeUpdate: Codable, Hashable, Sendable {
  /// The probing server.
  public var serverID: String
  /// One result per probe target.
  public var results: [NetworkProbeResult]

  /// Creates an update.
  /// - Parameters:
  ///   - serverID: Server id.
  ///   - results: Per-target results.
  public init(serverID: String, results: [NetworkProbeResult]) {
    self.serverID = serverID
    self.results = results
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case results
  }
}

/// One probe target's result in a ``NetworkProbeUpdate``.
///
/// Latencies are milliseconds and `nil` when no packet came back; a `null` is also how the server
/// writes a non-finite value.
public struct NetworkProbeResult: Codable, Hashable, Sendable {
  /// The probe target id.
  public var targetID: String
  /// Mean round-trip time, ms.
  public var avgLatency: Double?
  /// Fastest round-trip time, ms.
  public var minLatency: Double?
  /// Slowest round-trip time, ms.
  public var maxLatency: Double?
  /// Lost packets, percent (`.nan` when the server sent `null`).
  public var packetLoss: Double
  /// Packets sent.
  public var packetSent: Int
  /// Packets received.
  public var packetReceived: Int
  /// When the round ended.
  public var timestamp: RFC3339Timestamp

  /// Creates a result.
  /// - Parameters:
  ///   - targetID: Target id.
  ///   - avgLatency: Mean, ms.
  ///   - minLatency: Minimum, ms.
  ///   - maxLatency: Maximum, ms.
  ///   - packetLoss: Loss percent.
  ///   - packetSent: Packets sent.
  ///   - packetReceived: Packets received.
  ///   - timestamp: Round end.
  public init(
    targetID: String, avgLatency: Double?, minLatency: Double?, maxLatency: Double?,
    packetLoss: Double, packetSent: Int, packetReceived: Int, timestamp: RFC3339Timestamp
  ) {
    self.targetID = targetID
    self.avgLatency = avgLatency
    self.minLatency = minLatency
    self.maxLatency = maxLatency
    self.packetLoss = packetLoss
    self.packetSent = packetSent
    self.packetReceived = packetReceived
    self.timestamp = timestamp
  }

  private enum CodingKeys: String, CodingKey {
    case targetID = "target_id"
    case avgLatency = "avg_latency"
    case minLatency = "min_latency"
    case maxLatency = "max_latency"
    case packetLoss = "packet_loss"
    case packetSent = "packet_sent"
    case packetReceived = "packet_received"
    case timestamp
  }

  /// Decodes a result; a `null` packet loss becomes `.nan`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    targetID = try c.decode(String.self, forKey: .targetID)
    avgLatency = try c.decodeIfPresent(Double.self, forKey: .avgLatency)
    minLatency = try c.decodeIfPresent(Double.self, forKey: .minLatency)
    maxLatency = try c.decodeIfPresent(Double.self, forKey: .maxLatency)
    packetLoss = try c.decodeMetric(forKey: .packetLoss)
    packetSent = try c.decode(Int.self, forKey: .packetSent)
    packetReceived = try c.decode(Int.self, forKey: .packetReceived)
    timestamp = try c.decode(RFC3339Timestamp.self, forKey: .timestamp)
  }
}

/// A `traceroute_update` frame: progress of a traceroute request.
///
/// Hops are kept as JSON because the agent leaves some hop fields out when empty.
public struct TracerouteUpdate: Codable, Hashable, Sendable {
  /// The tracing server.
  public var serverID: String
  /// The request id.
  public var requestID: String
  /// The traced host.
  public var target: String
  /// The probe protocol.
  public var `protocol`: TracerouteProtocol
  /// Start time in Unix **milliseconds**.
  public var startedAt: Int64
  /// The current round.
  public var round: Int
  /// The number of rounds.
  public var totalRounds: Int
  /// Hop objects (typically `hop`, `ip`, `hostname`, `rtt1`…`rtt3`, `asn`).
  public var hops: [JSONValue]
  /// Whether the trace finished.
  public var completed: Bool
  /// The failure text, if any.
  public var error: String?

  /// Creates an update.
  /// - Parameters:
  ///   - serverID: Server id.
  ///   - requestID: Request id.
  ///   - target: Traced host.
  ///   - protocol: Probe protocol.
  ///   - startedAt: Unix milliseconds.
  ///   - round: Current round.
  ///   - totalRounds: Round count.
  ///   - hops: Hop objects.
  ///   - completed: Whether finished.
  ///   - error: Failure text.
  public init(
    serverID: String, requestID: String, target: String, protocol: TracerouteProtocol,
    startedAt: Int64, round: Int, totalRounds: Int, hops: [JSONValue], completed: Bool,
    error: String? = nil
  ) {
    self.serverID = serverID
    self.requestID = requestID
    self.target = target
    self.protocol = `protocol`
    self.startedAt = startedAt
    self.round = round
    self.totalRounds = totalRounds
    self.hops = hops
    self.completed = completed
    self.error = error
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case requestID = "request_id"
    case target
    case `protocol`
    case startedAt = "started_at"
    case round
    case totalRounds = "total_rounds"
    case hops, completed, error
  }
}

/// The probe protocol of a traceroute (unknown values survive).
public struct TracerouteProtocol: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a protocol value.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// ICMP echo.
  public static let icmp: Self = "icmp"
  /// UDP probes.
  public static let udp: Self = "udp"
  /// TCP SYN probes.
  public static let tcp: Self = "tcp"
  /// The system `traceroute` command.
  public static let legacy: Self = "legacy"
}
