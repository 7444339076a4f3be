public import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

extension ServerBeeAPIClient {
  /// `GET /api/ip-quality/overview`: every server's IP quality, by server id
  /// (Protocol/AppRoutes.md §9). Any member.
  ///
  /// ```swift
  /// for server in try await api.ipQualityOverview() {
  ///   print(server.serverID, server.ipQuality?.riskLevel ?? "-")
  /// }
  /// ```
  /// - Returns: One entry per server.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func ipQualityOverview() async throws -> [ServerIPQuality] {
    try await send(RouteCatalogue.IPQuality.ipQualityOverview)
  }

  /// `GET /api/ip-quality/servers/{id}`: one server's IP quality (Protocol/AppRoutes.md §9). An
  /// unknown server answers empty data, not 404. Any member.
  ///
  /// ```swift
  /// let data = try await api.ipQuality(serverID: server.id)
  /// ```
  /// - Parameter serverID: The server.
  /// - Returns: Its results and report.
  /// - Throws: ``ServerBeeAPIError`` (`.invalidArgument` for an empty id), or
  ///   `CancellationError`.
  public func ipQuality(serverID: String) async throws -> ServerIPQuality {
    try Self.requireNonEmpty(serverID, "the server id")
    return try await send(RouteCatalogue.IPQuality.serverIPQuality, PathID(serverID))
  }

  /// `POST /api/ip-quality/servers/{id}/check`: asks the agent to check again
  /// (Protocol/AppRoutes.md §9). **Admin only**. The check runs on the agent: poll
  /// ``ipQuality(serverID:)`` until `ip_quality.checked_at` changes, as
  /// ``recheckIPQuality(serverID:polls:interval:)`` does.
  ///
  /// ```swift
  /// try await api.checkIPQuality(serverID: server.id)
  /// ```
  /// - Parameter serverID: The server.
  /// - Throws: ``ServerBeeAPIError``: `.agentOffline` when the agent is not connected,
  ///   `.conflict` when the agent has IP quality switched off, `.forbidden` for a member. Or
  ///   `CancellationError`.
  public func checkIPQuality(serverID: String) async throws {
    try Self.requireNonEmpty(serverID, "the server id")
    do {
      _ = try await send(RouteCatalogue.IPQuality.checkIPQuality, PathID(serverID))
    } catch let error as ServerBeeAPIError {
      throw Self.agentOffline(error)
    }
  }

  /// Checks again and waits for the new report as the app does: `polls` reads `interval`
  /// apart until `checked_at` changes (Protocol/AppRoutes.md §9).
  ///
  /// ```swift
  /// if let fresh = try await api.recheckIPQuality(serverID: server.id) { print(fresh) }
  /// ```
  /// - Parameters:
  ///   - serverID: The server.
  ///   - polls: Reads after the request (6, the app's).
  ///   - interval: The wait before each read (2 s).
  /// - Returns: The new data, or `nil` when it did not change within the polls.
  /// - Throws: As ``checkIPQuality(serverID:)``, or `CancellationError`.
  public func recheckIPQuality(
    serverID: String, polls: Int = 6, interval: Duration = .seconds(2)
  ) async throws -> ServerIPQuality? {
    let before = try await ipQuality(serverID: serverID).ipQuality?.checkedAt
    try await checkIPQuality(serverID: serverID)
    for _ in 0..<max(0, polls) {
      try await Task.sleep(for: interval)
      let now = try await ipQuality(serverID: serverID)
      if let checked = now.ipQuality?.checkedAt, checked != before { return now }
    }
    return nil
  }

  /// `GET /api/ip-quality/services`: the probed services, by category then popularity
  /// (Protocol/AppRoutes.md §9). Any member.
  ///
  /// ```swift
  /// let custom = try await api.unlockServices().filter { !$0.isBuiltin }
  /// ```
  /// - Returns: The services.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func unlockServices() async throws -> [UnlockService] {
    try await send(RouteCatalogue.IPQuality.unlockServices)
  }

  /// `PUT /api/ip-quality/services/{id} {enabled}`: switches a service's probe on or off
  /// (Protocol/AppRoutes.md §9). **Admin only**.
  ///
  /// ```swift
  /// let service = try await api.setUnlockService(id: "netflix", enabled: false)
  /// ```
  /// - Parameters:
  ///   - id: The service.
  ///   - enabled: Probe it or not.
  /// - Returns: The service as stored.
  /// - Throws: ``ServerBeeAPIError`` (`.notFound`, `.forbidden`), or `CancellationError`.
  public func setUnlockService(id: String, enabled: Bool) async throws -> UnlockService {
    try Self.requireNonEmpty(id, "the service id")
    return try await send(
      RouteCatalogue.IPQuality.updateUnlockService, PathID(id),
      body: UnlockServiceUpdate(enabled: enabled))
  }

  /// `DELETE /api/ip-quality/services/{id}`: removes a custom service (Protocol/AppRoutes.md
  /// §9). **Admin only**; a built-in one is refused with `.badRequest`.
  ///
  /// ```swift
  /// try await api.deleteUnlockService(id: service.id)
  /// ```
  /// - Parameter id: The service.
  /// - Throws: ``ServerBeeAPIError`` (`.badRequest`, `.notFound`, `.forbidden`), or
  ///   `CancellationError`.
  public func deleteUnlockService(id: String) async throws {
    try Self.requireNonEmpty(id, "the service id")
    _ = try await send(RouteCatalogue.IPQuality.deleteUnlockService, PathID(id))
  }

  /// `GET /api/ip-quality/settings` (Protocol/AppRoutes.md §9). Any member.
  ///
  /// ```swift
  /// print(try await api.ipQualitySettings().checkIntervalHours)
  /// ```
  /// - Returns: The settings.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func ipQualitySettings() async throws -> IPQualitySettings {
    try await send(RouteCatalogue.IPQuality.ipQualitySettings)
  }

  /// `PUT /api/ip-quality/settings` (Protocol/AppRoutes.md §9). **Admin only**.
  ///
  /// ```swift
  /// _ = try await api.updateIPQualitySettings(IPQualitySettings(checkIntervalHours: 24))
  /// ```
  /// - Parameter settings: The hours between checks, 1–168 (checked before sending).
  /// - Returns: The settings as stored.
  /// - Throws: ``ServerBeeAPIError`` (`.invalidArgument`, `.validation`, `.forbidden`), or
  ///   `CancellationError`.
  public func updateIPQualitySettings(_ settings: IPQualitySettings) async throws
    -> IPQualitySettings
  {
    guard (1...168).contains(settings.checkIntervalHours) else {
      throw ServerBeeAPIError(
        .invalidArgument, "check_interval_hours must be between 1 and 168 (one week)")
    }
    return try await send(RouteCatalogue.IPQuality.updateIPQualitySettings, body: settings)
  }
}
