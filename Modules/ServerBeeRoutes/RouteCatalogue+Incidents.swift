public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// Incidents, maintenance windows and the status page's settings
  /// (`Documentation/Protocol/Incidents.md`). Every incident and maintenance route is admin
  /// only, the lists included; reading the status page needs any credential.
  public enum Incidents {
    /// `GET /api/incidents`.
    public static let incidents = APIRoute<NoPath, NoBody, [Incident]>(
      "incidents", .get, "/api/incidents", .admin, query: ["status"],
      summary: "incidents, newest first")
    /// `POST /api/incidents`.
    public static let createIncident = APIRoute<NoPath, IncidentCreateRequest, Incident>(
      "createIncident", .post, "/api/incidents", .admin, summary: "open an incident")
    /// `POST /api/incidents/{id}/updates`.
    public static let postIncidentUpdate =
      APIRoute<PathID, IncidentUpdateRequest, IncidentUpdate>(
        "postIncidentUpdate", .post, "/api/incidents/{id}/updates", .admin,
        summary: "post an update that sets an incident's status")
    /// `DELETE /api/incidents/{id}`.
    public static let deleteIncident = APIRoute<PathID, NoBody, String>(
      "deleteIncident", .delete, "/api/incidents/{id}", .admin,
      summary: "delete an incident with its updates")
    /// `GET /api/maintenances`.
    public static let maintenances = APIRoute<NoPath, NoBody, [Maintenance]>(
      "maintenances", .get, "/api/maintenances", .admin,
      summary: "maintenance windows, newest first")
    /// `POST /api/maintenances`.
    public static let createMaintenance =
      APIRoute<NoPath, MaintenanceCreateRequest, Maintenance>(
        "createMaintenance", .post, "/api/maintenances", .admin,
        summary: "schedule a maintenance window")
    /// `PUT /api/maintenances/{id}`.
    public static let updateMaintenance =
      APIRoute<PathID, MaintenanceUpdateRequest, Maintenance>(
        "updateMaintenance", .put, "/api/maintenances/{id}", .admin,
        summary: "change a maintenance window")
    /// `DELETE /api/maintenances/{id}`.
    public static let deleteMaintenance = APIRoute<PathID, NoBody, String>(
      "deleteMaintenance", .delete, "/api/maintenances/{id}", .admin,
      summary: "delete a maintenance window")
    /// `GET /api/status-page`.
    public static let statusPage = APIRoute<NoPath, NoBody, StatusPageConfig>(
      "statusPage", .get, "/api/status-page", .member, summary: "the status page's settings")
    /// `PUT /api/status-page`.
    public static let updateStatusPage = APIRoute<NoPath, StatusPageUpdate, StatusPageConfig>(
      "updateStatusPage", .put, "/api/status-page", .admin,
      summary: "change the status page's settings")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      incidents.erased, createIncident.erased, postIncidentUpdate.erased, deleteIncident.erased,
      maintenances.erased, createMaintenance.erased, updateMaintenance.erased,
      deleteMaintenance.erased, statusPage.erased, updateStatusPage.erased,
    ]
  }
}
