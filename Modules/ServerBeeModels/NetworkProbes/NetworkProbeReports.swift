/// One target's latest probe on a server (Protocol/AppRoutes.md §6): in
/// ``NetworkProbeServerSummary/targets`` and ``NetworkProbeFleetOverview/targets``.
///
/// A target with no records yet has `nil` latencies, a ``packetLoss`` of 0 and an
/// ``availability`` of 0; otherwise ``availability`` is 1 − ``packetLoss``.
public struct NetworkProbeTargetSummary: Codable, Hashable, Sendable, Identifiable {
  /// The target.
  public var targetID: String
  /// Its name.
  public var targetName: String
  /// Its provider.
  public var provider: String
  /// Average round trip, ms.
  public var avgLatency: Double?
  /// Fastest round trip, ms.
  public var minLatency: Double?
  /// Slowest round trip, ms.
  public var maxLatency: Double?
  /// Lost packets, a ratio 0–1.
  public var packetLoss: Double
  /// 1 − loss; 0 without records.
  public var availability: Double

  /// The target.
  public var id: String { targetID }

  /// Creates a value.
  /// - Parameters:
  ///   - targetID: Target.
  ///   - targetName: Name.
  ///   - provider: Provider.
  ///   - avgLatency: Average, ms.
  ///   - minLatency: Minimum, ms.
  ///   - maxLatency: Maximum, ms.
  ///   - packetLoss: Loss ratio.
  ///   - availability: Availability ratio.
  public init(
    targetID: String, targetName: String, provider: String, avgLatency: Double?,
    minLatency: Double?, maxLatency: Double?, packetLoss: Double, availability: Double
  ) {
    self.targetID = targetID
    self.targetName = targetName
    self.provider = provider
    self.avgLatency = avgLatency
    self.minLatency = minLatency
    self.maxLatency = maxLatency
    self.packetLoss = packetLoss
    self.availability = availability
  }

  private enum CodingKeys: String, CodingKey {
    case targetID = "target_id"
    case targetName = "target_name"
    case provider
    case avgLatency = "avg_latency"
    case minLatency = "min_latency"
    case maxLatency = "max_latency"
    case packetLoss = "packet_loss"
    case availability
  }
}

/// `GET /api/servers/{id}/network-probes/summary` (Protocol/AppRoutes.md §6): every target
/// assigned to one server with its latest probe, and the anomalies of the last 24 hours.
///
/// ```swift
/// let summary = try await api.networkProbeSummary(serverID: server.id)
/// for target in summary.targets {
///   print(target.targetName, target.avgLatency ?? .nan, "ms", target.packetLoss * 100, "% lost")
/// }
/// ```
public struct NetworkProbeServerSummary: Codable, Hashable, Sendable {
  /// The server.
  public var serverID: String
  /// Its name.
  public var serverName: String
  /// Whether its agent is connected.
  public var online: Bool
  /// Its targets, from the latest record of each.
  public var targets: [NetworkProbeTargetSummary]
  /// Its newest probe (`+00:00` form), if any.
  public var lastProbeAt: RFC3339Timestamp?
  /// Anomalies in the last 24 hours.
  public var anomalyCount: Int

  /// Creates a value.
  /// - Parameters:
  ///   - serverID: Server.
  ///   - serverName: Name.
  ///   - online: Connected.
  ///   - targets: Targets.
  ///   - lastProbeAt: Newest probe.
  ///   - anomalyCount: Anomalies in 24 hours.
  public init(
    serverID: String, serverName: String, online: Bool, targets: [NetworkProbeTargetSummary],
    lastProbeAt: RFC3339Timestamp?, anomalyCount: Int
  ) {
    self.serverID = serverID
    self.serverName = serverName
    self.online = online
    self.targets = targets
    self.lastProbeAt = lastProbeAt
    self.anomalyCount = anomalyCount
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case serverName = "server_name"
    case online, targets
    case lastProbeAt = "last_probe_at"
    case anomalyCount = "anomaly_count"
  }
}

/// One server of `GET /api/network-probes/overview` (Protocol/AppRoutes.md §6), in no set
/// order: its summary plus two 30-slot sparklines.
///
/// Each sparkline slot is `max(interval, 60)` seconds wide, oldest first, the last ending at
/// the server's newest probe; `nil` is a gap. The 30 slots are **not** 24 hours.
///
/// ```swift
/// for server in try await api.networkProbeOverview() where server.anomalyCount > 0 {
///   print(server.serverName, server.anomalyCount, "anomalies today")
/// }
/// ```
public struct NetworkProbeFleetOverview: Codable, Hashable, Sendable, Identifiable {
  /// The server.
  public var serverID: String
  /// Its name.
  public var serverName: String
  /// Whether its agent is connected.
  public var online: Bool
  /// Its newest probe, if any.
  public var lastProbeAt: RFC3339Timestamp?
  /// Its targets, from the latest record of each.
  public var targets: [NetworkProbeTargetSummary]
  /// Anomalies in the last 24 hours.
  public var anomalyCount: Int
  /// Average latency per slot, ms.
  public var latencySparkline: [Double?]
  /// Average loss ratio per slot.
  public var lossSparkline: [Double?]

  /// The server.
  public var id: String { serverID }

  /// Creates a value.
  /// - Parameters:
  ///   - serverID: Server.
  ///   - serverName: Name.
  ///   - online: Connected.
  ///   - lastProbeAt: Newest probe.
  ///   - targets: Targets.
  ///   - anomalyCount: Anomalies in 24 hours.
  ///   - latencySparkline: Latency slots.
  ///   - lossSparkline: Loss slots.
  public init(
    serverID: String, serverName: String, online: Bool, lastProbeAt: RFC3339Timestamp?,
    targets: [NetworkProbeTargetSummary], anomalyCount: Int, latencySparkline: [Double?],
    lossSparkline: [Double?]
  ) {
    self.serverID = serverID
    self.serverName = serverName
    self.online = online
    self.lastProbeAt = lastProbeAt
    self.targets = targets
    self.anomalyCount = anomalyCount
    self.latencySparkline = latencySparkline
    self.lossSparkline = lossSparkline
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case serverName = "server_name"
    case online
    case lastProbeAt = "last_probe_at"
    case targets
    case anomalyCount = "anomaly_count"
    case latencySparkline = "latency_sparkline"
    case lossSparkline = "loss_sparkline"
  }
}

/// One record of `GET /api/servers/{id}/network-probes/records` (Protocol/AppRoutes.md §6),
/// oldest first.
///
/// A window under one day answers raw samples; a window of a day or more answers hourly
/// aggregates, where ``packetLoss`` is the hour's average and ``packetSent`` and
/// ``packetReceived`` **both** hold the number of samples. Which of the two a record is follows
/// from the window asked for, not from the record.
///
/// ```swift
/// let now = Date()
/// let hour = try await api.networkProbeRecords(
///   serverID: server.id, from: now.addingTimeInterval(-3600), to: now)
/// ```
public struct NetworkProbeRecord: Codable, Hashable, Sendable {
  /// The server.
  public var serverID: String
  /// The target.
  public var targetID: String
  /// When it was probed, or the hour's start (`+00:00` form).
  public var timestamp: RFC3339Timestamp
  /// Average round trip, ms; `nil` when nothing came back.
  public var avgLatency: Double?
  /// Fastest round trip, ms.
  public var minLatency: Double?
  /// Slowest round trip, ms.
  public var maxLatency: Double?
  /// Lost packets, a ratio 0–1.
  public var packetLoss: Double
  /// Packets sent (an aggregate: the sample count).
  public var packetSent: Int
  /// Packets received (an aggregate: the sample count).
  public var packetReceived: Int

  /// Creates a value.
  /// - Parameters:
  ///   - serverID: Server.
  ///   - targetID: Target.
  ///   - timestamp: Time.
  ///   - avgLatency: Average, ms.
  ///   - minLatency: Minimum, ms.
  ///   - maxLatency: Maximum, ms.
  ///   - packetLoss: Loss ratio.
  ///   - packetSent: Sent.
  ///   - packetReceived: Received.
  public init(
    serverID: String, targetID: String, timestamp: RFC3339Timestamp, avgLatency: Double?,
    minLatency: Double?, maxLatency: Double?, packetLoss: Double, packetSent: Int,
    packetReceived: Int
  ) {
    self.serverID = serverID
    self.targetID = targetID
    self.timestamp = timestamp
    self.avgLatency = avgLatency
    self.minLatency = minLatency
    self.maxLatency = maxLatency
    self.packetLoss = packetLoss
    self.packetSent = packetSent
    self.packetReceived = packetReceived
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case targetID = "target_id"
    case timestamp
    case avgLatency = "avg_latency"
    case minLatency = "min_latency"
    case maxLatency = "max_latency"
    case packetLoss = "packet_loss"
    case packetSent = "packet_sent"
    case packetReceived = "packet_received"
  }
}

/// One anomaly of `GET /api/servers/{id}/network-probes/anomalies` (Protocol/AppRoutes.md §6),
/// newest first. One record may give a latency anomaly and a loss anomaly.
///
/// ```swift
/// let week = try await api.networkProbeAnomalies(
///   serverID: server.id, from: Date().addingTimeInterval(-7 * 86_400), to: Date())
/// let outages = week.filter { $0.anomalyType == .unreachable }
/// ```
public struct NetworkProbeAnomaly: Codable, Hashable, Sendable {
  /// When the record was probed.
  public var timestamp: RFC3339Timestamp
  /// The target.
  public var targetID: String
  /// Its name.
  public var targetName: String
  /// What was wrong.
  public var anomalyType: NetworkProbeAnomalyType
  /// The latency in ms, the loss ratio, or 1 for `unreachable`.
  public var value: Double

  /// Creates a value.
  /// - Parameters:
  ///   - timestamp: Time.
  ///   - targetID: Target.
  ///   - targetName: Name.
  ///   - anomalyType: Kind.
  ///   - value: Latency (ms) or loss ratio.
  public init(
    timestamp: RFC3339Timestamp, targetID: String, targetName: String,
    anomalyType: NetworkProbeAnomalyType, value: Double
  ) {
    self.timestamp = timestamp
    self.targetID = targetID
    self.targetName = targetName
    self.anomalyType = anomalyType
    self.value = value
  }

  private enum CodingKeys: String, CodingKey {
    case timestamp
    case targetID = "target_id"
    case targetName = "target_name"
    case anomalyType = "anomaly_type"
    case value
  }
}

/// The kind of a ``NetworkProbeAnomaly``; kinds a newer server adds still decode.
public struct NetworkProbeAnomalyType: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a kind from its wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Every packet lost (value 1).
  public static let unreachable: Self = "unreachable"
  /// Average latency over 800 ms (value: ms).
  public static let veryHighLatency: Self = "very_high_latency"
  /// Average latency over 500 ms (value: ms).
  public static let highLatency: Self = "high_latency"
  /// Loss over 0.5 (value: ratio).
  public static let veryHighPacketLoss: Self = "very_high_packet_loss"
  /// Loss over 0.1 (value: ratio).
  public static let highPacketLoss: Self = "high_packet_loss"
}
