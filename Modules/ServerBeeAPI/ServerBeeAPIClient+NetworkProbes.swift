public import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

// Network probes (Protocol/AppRoutes.md §6): any member reads the summaries, records,
// anomalies, targets and settings; only admins change targets and settings (a member gets the
// empty-body 403, `.forbidden`).

extension ServerBeeAPIClient {
  /// `GET /api/servers/{id}/network-probes/summary`: one server's targets with the latest
  /// probe of each, its newest probe time and its anomalies of the last 24 hours.
  ///
  /// ```swift
  /// let summary = try await api.networkProbeSummary(serverID: server.id)
  /// print(summary.serverName, summary.anomalyCount, "anomalies today")
  /// ```
  /// - Parameter serverID: The server.
  /// - Returns: The summary.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an empty id, `.notFound` for an
  ///   unknown server. Or `CancellationError`.
  public func networkProbeSummary(serverID: String) async throws -> NetworkProbeServerSummary {
    try Self.requireNonEmpty(serverID, "the server id")
    return try await send(RouteCatalogue.NetworkProbes.serverProbeSummary, PathID(serverID))
  }

  /// `GET /api/servers/{id}/network-probes/targets`: the targets one server probes; empty for
  /// a server with none and for an unknown server.
  ///
  /// ```swift
  /// let names = try await api.networkProbeTargets(serverID: server.id).map(\.name)
  /// ```
  /// - Parameter serverID: The server.
  /// - Returns: The targets, in the list's shape.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an empty id. Or
  ///   `CancellationError`.
  public func networkProbeTargets(serverID: String) async throws -> [NetworkProbeTarget] {
    try Self.requireNonEmpty(serverID, "the server id")
    return try await send(RouteCatalogue.NetworkProbes.serverProbeTargets, PathID(serverID))
  }

  /// `GET /api/servers/{id}/network-probes/records?from&to[&target_id]`: one server's records
  /// in a window, oldest first. Under a day they are raw samples; from a day on, hourly
  /// aggregates whose `packetSent` and `packetReceived` both hold the sample count.
  ///
  /// ```swift
  /// let to = RFC3339Timestamp(Date())
  /// let from = RFC3339Timestamp(secondsSince1970: to.secondsSince1970 - 6 * 3600)
  /// let records = try await api.networkProbeRecords(serverID: server.id, from: from, to: to)
  /// ```
  /// - Parameters:
  ///   - serverID: The server.
  ///   - from: The window's start.
  ///   - to: The window's end.
  ///   - targetID: Only this target's records, when given.
  /// - Returns: The records.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an empty id or a window that ends
  ///   before it starts. Or `CancellationError`.
  public func networkProbeRecords(
    serverID: String, from: RFC3339Timestamp, to: RFC3339Timestamp, targetID: String? = nil
  ) async throws -> [NetworkProbeRecord] {
    try Self.requireNonEmpty(serverID, "the server id")
    try Self.requireWindow(from, to)
    return try await send(
      RouteCatalogue.NetworkProbes.serverProbeRecords, PathID(serverID),
      query: [
        ("from", from.formatted(.zulu)), ("to", to.formatted(.zulu)), ("target_id", targetID),
      ]
    )
  }

  /// `GET /api/servers/{id}/network-probes/anomalies?from&to`: one server's anomalies in a
  /// window, newest first (the server scans at most 500 anomalous records).
  ///
  /// ```swift
  /// let to = RFC3339Timestamp(Date())
  /// let from = RFC3339Timestamp(secondsSince1970: to.secondsSince1970 - 86_400)
  /// let anomalies = try await api.networkProbeAnomalies(serverID: server.id, from: from, to: to)
  /// ```
  /// - Parameters:
  ///   - serverID: The server.
  ///   - from: The window's start.
  ///   - to: The window's end.
  /// - Returns: The anomalies.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an empty id or a window that ends
  ///   before it starts. Or `CancellationError`.
  public func networkProbeAnomalies(
    serverID: String, from: RFC3339Timestamp, to: RFC3339Timestamp
  ) async throws -> [NetworkProbeAnomaly] {
    try Self.requireNonEmpty(serverID, "the server id")
    try Self.requireWindow(from, to)
    return try await send(
      RouteCatalogue.NetworkProbes.serverProbeAnomalies, PathID(serverID),
      query: [("from", from.formatted(.zulu)), ("to", to.formatted(.zulu))])
  }

  /// `GET /api/network-probes/overview`: every server's probe summary with 30-slot latency
  /// and loss sparklines, in no set order.
  ///
  /// ```swift
  /// for server in try await api.networkProbeOverview() {
  ///   print(server.serverName, server.latencySparkline.compactMap { $0 }.last ?? .nan)
  /// }
  /// ```
  /// - Returns: One entry per server.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func networkProbeOverview() async throws -> [NetworkProbeFleetOverview] {
    try await send(RouteCatalogue.NetworkProbes.probeOverview)
  }

  /// `GET /api/network-probes/targets`: every target, presets first, then custom targets by
  /// name.
  ///
  /// ```swift
  /// let custom = try await api.networkProbeTargets().filter { !$0.isPreset }
  /// ```
  /// - Returns: The targets.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func networkProbeTargets() async throws -> [NetworkProbeTarget] {
    try await send(RouteCatalogue.NetworkProbes.probeTargets)
  }

  /// `POST /api/network-probes/targets`: adds a custom target. **Admin only.** The answer is
  /// the stored row: no `source`, `Z` times.
  ///
  /// ```swift
  /// let made = try await api.createNetworkProbeTarget(
  ///   NetworkProbeTargetRequest(
  ///     name: "Edge", provider: "Hetzner", location: "Falkenstein", target: "edge.example.com",
  ///     probeType: .icmp))
  /// ```
  /// - Parameter request: Every member set.
  /// - Returns: The new target.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` when a member is missing (checked
  ///   before sending), `.validation` for another probe type or a blocked address,
  ///   `.forbidden` for a member. Or `CancellationError`.
  public func createNetworkProbeTarget(_ request: NetworkProbeTargetRequest) async throws
    -> NetworkProbeTarget
  {
    guard request.isComplete else {
      throw ServerBeeAPIError(
        .invalidArgument,
        "a probe target needs a name, a provider, a location, a target and a probe type")
    }
    return try await send(RouteCatalogue.NetworkProbes.createProbeTarget, body: request)
  }

  /// `PUT /api/network-probes/targets/{id}`: changes the members set of a custom target.
  /// **Admin only.**
  ///
  /// ```swift
  /// _ = try await api.updateNetworkProbeTarget(id: target.id, NetworkProbeTargetRequest(name: "HQ"))
  /// ```
  /// - Parameters:
  ///   - id: The target.
  ///   - request: The members to change.
  /// - Returns: The stored row.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an empty id, `.forbidden` for a
  ///   preset or a member, `.notFound` for an unknown id, `.validation` for a bad probe type or
  ///   target. Or `CancellationError`.
  public func updateNetworkProbeTarget(id: String, _ request: NetworkProbeTargetRequest)
    async throws -> NetworkProbeTarget
  {
    try Self.requireNonEmpty(id, "the probe target id")
    return try await send(RouteCatalogue.NetworkProbes.updateProbeTarget, PathID(id), body: request)
  }

  /// `DELETE /api/network-probes/targets/{id}`: deletes a custom target, its assignments and
  /// records, and drops it from the default targets. **Admin only.**
  ///
  /// ```swift
  /// try await api.deleteNetworkProbeTarget(id: target.id)
  /// ```
  /// - Parameter id: The target.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an empty id, `.forbidden` for a
  ///   preset or a member, `.notFound` for an unknown id. Or `CancellationError`.
  public func deleteNetworkProbeTarget(id: String) async throws {
    try Self.requireNonEmpty(id, "the probe target id")
    _ = try await send(RouteCatalogue.NetworkProbes.deleteProbeTarget, PathID(id))
  }

  /// `GET /api/network-probes/setting`: the probe interval, packet count and default targets.
  ///
  /// ```swift
  /// let setting = try await api.networkProbeSetting()
  /// print("every", setting.interval, "s,", setting.packetCount, "packets")
  /// ```
  /// - Returns: The setting.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func networkProbeSetting() async throws -> NetworkProbeSetting {
    try await send(RouteCatalogue.NetworkProbes.probeSetting)
  }

  /// `PUT /api/network-probes/setting`: replaces the setting (every member is sent).
  /// **Admin only.**
  ///
  /// ```swift
  /// _ = try await api.updateNetworkProbeSetting(
  ///   NetworkProbeSetting(interval: 120, packetCount: 10, defaultTargetIDs: []))
  /// ```
  /// - Parameter setting: The new setting.
  /// - Returns: The server's echo.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an interval outside 30–600 s or a
  ///   packet count outside 5–20 (checked before sending, with the server's limits),
  ///   `.validation` for an unknown default target, `.forbidden` for a member. Or
  ///   `CancellationError`.
  public func updateNetworkProbeSetting(_ setting: NetworkProbeSetting) async throws
    -> NetworkProbeSetting
  {
    guard NetworkProbeSetting.intervalRange.contains(setting.interval) else {
      throw ServerBeeAPIError(
        .invalidArgument, "interval must be between 30 and 600 seconds, not \(setting.interval)")
    }
    guard NetworkProbeSetting.packetCountRange.contains(setting.packetCount) else {
      throw ServerBeeAPIError(
        .invalidArgument, "packet_count must be between 5 and 20, not \(setting.packetCount)")
    }
    return try await send(RouteCatalogue.NetworkProbes.updateProbeSetting, body: setting)
  }

  private static func requireWindow(_ from: RFC3339Timestamp, _ to: RFC3339Timestamp) throws {
    guard from <= to else {
      throw ServerBeeAPIError(
        .invalidArgument, "the window ends (\(to)) before it starts (\(from))")
    }
  }
}
