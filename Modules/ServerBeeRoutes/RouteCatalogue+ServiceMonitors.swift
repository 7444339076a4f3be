public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// Service monitors (`Documentation/Protocol/AppRoutes.md §11`): any member reads them; an
  /// admin runs a check now.
  public enum ServiceMonitors {
    /// `GET /api/service-monitors[?type=]`: oldest first, optionally of one type.
    public static let serviceMonitors = APIRoute<NoPath, NoBody, [ServiceMonitor]>(
      "serviceMonitors", .get, "/api/service-monitors", .member, query: ["type"],
      summary: "the service monitors")
    /// `GET /api/service-monitors/{id}`: the monitor with its latest record.
    public static let serviceMonitor = APIRoute<PathID, NoBody, ServiceMonitorDetail>(
      "serviceMonitor", .get, "/api/service-monitors/{id}", .member,
      summary: "one service monitor and its latest check")
    /// `GET /api/service-monitors/{id}/records[?from][&to][&limit]`: newest first.
    public static let serviceMonitorRecords = APIRoute<PathID, NoBody, [ServiceMonitorRecord]>(
      "serviceMonitorRecords", .get, "/api/service-monitors/{id}/records", .member,
      query: ["from", "to", "limit"], summary: "a service monitor's checks")
    /// `POST /api/service-monitors/{id}/check`: runs a check now and answers its record.
    public static let checkServiceMonitor = APIRoute<PathID, NoBody, ServiceMonitorRecord>(
      "checkServiceMonitor", .post, "/api/service-monitors/{id}/check", .admin,
      summary: "check a service monitor now")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      serviceMonitors.erased, serviceMonitor.erased, serviceMonitorRecords.erased,
      checkServiceMonitor.erased,
    ]
  }
}
