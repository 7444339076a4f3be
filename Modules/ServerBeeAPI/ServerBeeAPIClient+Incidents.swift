public import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

// Incidents, maintenance windows and the status page (Protocol/Incidents.md). Every incident and
// maintenance route is **admin only**, the lists included: a member gets `.forbidden` (an
// empty-body 403), never an empty list (Protocol/Incidents.md §1.1).

extension ServerBeeAPIClient {
  /// `GET /api/incidents`: incidents, newest first (Protocol/Incidents.md §2.1). Admin only.
  ///
  /// ```swift
  /// let open = try await api.incidents(status: .investigating)
  /// ```
  /// - Parameter status: Only incidents in this status, or `nil` for all.
  /// - Returns: The incidents.
  /// - Throws: ``ServerBeeAPIError``: `.forbidden` for a member. Or `CancellationError`.
  public func incidents(status: IncidentStatus? = nil) async throws -> [Incident] {
    try await send(RouteCatalogue.Incidents.incidents, query: [("status", status?.rawValue)])
  }

  /// `POST /api/incidents`: opens an incident (Protocol/Incidents.md §2.2). Admin only.
  ///
  /// ```swift
  /// let incident = try await api.createIncident(
  ///   IncidentCreateRequest(title: "API latency", severity: .major, isPublic: true))
  /// ```
  /// - Parameter request: The incident; `serverIDs` goes out as the array `server_ids_json`.
  /// - Returns: The new incident.
  /// - Throws: ``ServerBeeAPIError``: `.validation` for a status or severity the server does
  ///   not know. Or `CancellationError`.
  public func createIncident(_ request: IncidentCreateRequest) async throws -> Incident {
    try await send(RouteCatalogue.Incidents.createIncident, body: request)
  }

  /// `POST /api/incidents/{id}/updates`: posts an update, which also sets the incident's status
  /// (Protocol/Incidents.md §2.3). `resolved` stamps `resolved_at` again each time. Admin only.
  ///
  /// ```swift
  /// _ = try await api.postIncidentUpdate(
  ///   incidentID: incident.id, status: .resolved, message: "Fixed by a restart.")
  /// ```
  /// - Parameters:
  ///   - incidentID: The incident.
  ///   - status: Its new status.
  ///   - message: The text to post.
  /// - Returns: The update.
  /// - Throws: ``ServerBeeAPIError``: `.notFound`, `.validation` (an unknown status). Or
  ///   `CancellationError`.
  public func postIncidentUpdate(
    incidentID: String, status: IncidentStatus, message: String
  ) async throws -> IncidentUpdate {
    try Self.requireNonEmpty(incidentID, "the incident id")
    return try await send(
      RouteCatalogue.Incidents.postIncidentUpdate, PathID(incidentID),
      body: IncidentUpdateRequest(status: status, message: message))
  }

  /// `DELETE /api/incidents/{id}`: deletes an incident with its updates
  /// (Protocol/Incidents.md §2.4). Admin only.
  ///
  /// ```swift
  /// try await api.deleteIncident(id: incident.id)
  /// ```
  /// - Parameter id: The incident.
  /// - Throws: ``ServerBeeAPIError``: `.notFound`. Or `CancellationError`.
  public func deleteIncident(id: String) async throws {
    try Self.requireNonEmpty(id, "the incident id")
    _ = try await send(RouteCatalogue.Incidents.deleteIncident, PathID(id))
  }

  /// `GET /api/maintenances`: maintenance windows, newest created first
  /// (Protocol/Incidents.md §3.1). Admin only.
  ///
  /// ```swift
  /// let windows = try await api.maintenances()
  /// ```
  /// - Returns: The windows.
  /// - Throws: ``ServerBeeAPIError``: `.forbidden` for a member. Or `CancellationError`.
  public func maintenances() async throws -> [Maintenance] {
    try await send(RouteCatalogue.Incidents.maintenances)
  }

  /// `POST /api/maintenances`: schedules a window (Protocol/Incidents.md §3.2). Admin only.
  ///
  /// ```swift
  /// let window = try await api.createMaintenance(
  ///   MaintenanceCreateRequest(title: "Kernel upgrade", startAt: start, endAt: end))
  /// ```
  /// - Parameter request: The window; its end must be after its start.
  /// - Returns: The new window.
  /// - Throws: ``ServerBeeAPIError``: `.validation` when the end is not after the start. Or
  ///   `CancellationError`.
  public func createMaintenance(_ request: MaintenanceCreateRequest) async throws -> Maintenance {
    try await send(RouteCatalogue.Incidents.createMaintenance, body: request)
  }

  /// `PUT /api/maintenances/{id}`: changes a window (Protocol/Incidents.md §3.3). Admin only.
  /// Only the members set are sent; `nil` never clears, `""` blanks the description.
  ///
  /// ```swift
  /// _ = try await api.updateMaintenance(
  ///   id: window.id, MaintenanceUpdateRequest(description: "", active: false))
  /// ```
  /// - Parameters:
  ///   - id: The window.
  ///   - changes: What to change; at least one member.
  /// - Returns: The window after the change.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` when nothing is set, `.notFound`. Or
  ///   `CancellationError`.
  public func updateMaintenance(id: String, _ changes: MaintenanceUpdateRequest) async throws
    -> Maintenance
  {
    try Self.requireNonEmpty(id, "the maintenance id")
    guard !changes.isEmpty else {
      throw ServerBeeAPIError(.invalidArgument, "give at least one change to the window")
    }
    return try await send(RouteCatalogue.Incidents.updateMaintenance, PathID(id), body: changes)
  }

  /// `DELETE /api/maintenances/{id}` (Protocol/Incidents.md §3.4). Admin only.
  ///
  /// ```swift
  /// try await api.deleteMaintenance(id: window.id)
  /// ```
  /// - Parameter id: The window.
  /// - Throws: ``ServerBeeAPIError``: `.notFound`. Or `CancellationError`.
  public func deleteMaintenance(id: String) async throws {
    try Self.requireNonEmpty(id, "the maintenance id")
    _ = try await send(RouteCatalogue.Incidents.deleteMaintenance, PathID(id))
  }

  /// `GET /api/status-page`: the status page's settings (Protocol/Incidents.md §4.1). Any
  /// credential.
  ///
  /// ```swift
  /// let page = try await api.statusPage()
  /// ```
  /// - Returns: The settings.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func statusPage() async throws -> StatusPageConfig {
    try await send(RouteCatalogue.Incidents.statusPage)
  }

  /// `PUT /api/status-page`: changes the status page's settings (Protocol/Incidents.md §4.2).
  /// Admin only. Only the members set are sent; `nil` never clears, `""` blanks the
  /// description; the server checks no value.
  ///
  /// ```swift
  /// var changes = StatusPageUpdate()
  /// changes.enabled = true
  /// let page = try await api.updateStatusPage(changes)
  /// ```
  /// - Parameter changes: What to change; at least one member.
  /// - Returns: The settings after the change.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` when nothing is set, `.forbidden` for
  ///   a member. Or `CancellationError`.
  public func updateStatusPage(_ changes: StatusPageUpdate) async throws -> StatusPageConfig {
    guard !changes.isEmpty else {
      throw ServerBeeAPIError(.invalidArgument, "give at least one change to the status page")
    }
    return try await send(RouteCatalogue.Incidents.updateStatusPage, body: changes)
  }
}
