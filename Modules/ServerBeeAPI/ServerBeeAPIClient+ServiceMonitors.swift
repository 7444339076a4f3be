public import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

extension ServerBeeAPIClient {
  /// `GET /api/service-monitors[?type=]`: the service monitors, oldest first
  /// (Protocol/AppRoutes.md §11). Any member.
  ///
  /// ```swift
  /// let certificates = try await api.serviceMonitors(type: .ssl)
  /// let down = try await api.serviceMonitors().filter { $0.lastStatus == false }
  /// ```
  /// - Parameter type: Only monitors of this type, when given (an unknown type gives `[]`).
  /// - Returns: The monitors.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func serviceMonitors(type: ServiceMonitorType? = nil) async throws -> [ServiceMonitor] {
    try await send(
      RouteCatalogue.ServiceMonitors.serviceMonitors, query: [("type", type?.rawValue)])
  }

  /// `GET /api/service-monitors/{id}`: one monitor with its latest check
  /// (Protocol/AppRoutes.md §11). Any member.
  ///
  /// ```swift
  /// let detail = try await api.serviceMonitor(id: monitor.id)
  /// if let latest = detail.latestRecord { print(latest.success, latest.latency ?? 0) }
  /// ```
  /// - Parameter id: The monitor.
  /// - Returns: The monitor and its newest record, if any.
  /// - Throws: ``ServerBeeAPIError``: `.notFound` for an unknown monitor, `.invalidArgument`
  ///   for an empty id. Or `CancellationError`.
  public func serviceMonitor(id: String) async throws -> ServiceMonitorDetail {
    try Self.requireNonEmpty(id, "the monitor id")
    return try await send(RouteCatalogue.ServiceMonitors.serviceMonitor, PathID(id))
  }

  /// `GET /api/service-monitors/{id}/records`: a monitor's checks, newest first
  /// (Protocol/AppRoutes.md §11). `from` and `to` are inclusive; the server has no default
  /// limit and no cap (the app asks for 50). An unknown monitor gives `[]`. Any member.
  ///
  /// ```swift
  /// let history = try await api.serviceMonitorRecords(id: monitor.id, limit: 50)
  /// let uptime = Double(history.filter(\.success).count) / Double(max(history.count, 1))
  /// ```
  /// - Parameters:
  ///   - id: The monitor.
  ///   - from: The earliest time, when given.
  ///   - to: The latest time, when given.
  ///   - limit: At most this many records, when given.
  /// - Returns: The records.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an empty id, a negative limit or
  ///   a window that ends before it starts. Or `CancellationError`.
  public func serviceMonitorRecords(
    id: String, from: RFC3339Timestamp? = nil, to: RFC3339Timestamp? = nil, limit: Int? = nil
  ) async throws -> [ServiceMonitorRecord] {
    try Self.requireNonEmpty(id, "the monitor id")
    if let limit, limit < 0 {
      throw ServerBeeAPIError(.invalidArgument, "the limit must not be negative, not \(limit)")
    }
    if let from, let to, to < from {
      throw ServerBeeAPIError(
        .invalidArgument, "the window ends (\(to)) before it starts (\(from))")
    }
    return try await send(
      RouteCatalogue.ServiceMonitors.serviceMonitorRecords, PathID(id),
      query: [
        ("from", from?.formatted(.zulu)), ("to", to?.formatted(.zulu)),
        ("limit", limit.map(String.init)),
      ])
  }

  /// `POST /api/service-monitors/{id}/check`: runs the check now and waits for it; the server
  /// also updates the monitor's state (Protocol/AppRoutes.md §11). **Admin only**.
  ///
  /// ```swift
  /// let record = try await api.checkServiceMonitor(id: monitor.id)
  /// print(record.success ? "up" : record.error ?? "down")
  /// ```
  /// - Parameter id: The monitor.
  /// - Returns: The new record.
  /// - Throws: ``ServerBeeAPIError``: `.notFound` for an unknown monitor, `.conflict` while
  ///   another check of it runs, `.forbidden` for a member, `.invalidArgument` for an empty
  ///   id. Or `CancellationError`.
  public func checkServiceMonitor(id: String) async throws -> ServiceMonitorRecord {
    try Self.requireNonEmpty(id, "the monitor id")
    return try await send(RouteCatalogue.ServiceMonitors.checkServiceMonitor, PathID(id))
  }
}
