public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// Traceroutes run by a server's agent (`Documentation/Protocol/AppRoutes.md §7`): any member
  /// reads them; starting, deleting and clearing are admin-only (Protocol/AppRoutes.md §2.2).
  public enum Traceroute {
    /// `GET /api/servers/{id}/traceroute`: the history, newest first (Protocol/AppRoutes.md §7.3).
    public static let tracerouteHistory = APIRoute<PathID, NoBody, [TracerouteSummary]>(
      "tracerouteHistory", .get, "/api/servers/{id}/traceroute", .member,
      query: ["limit", "offset"], summary: "one server's traceroute history")
    /// `POST /api/servers/{id}/traceroute` (Protocol/AppRoutes.md §7.1).
    public static let startTraceroute = APIRoute<PathID, TracerouteRequest, TracerouteStarted>(
      "startTraceroute", .post, "/api/servers/{id}/traceroute", .admin,
      summary: "start a traceroute on a server's agent")
    /// `GET /api/servers/{id}/traceroute/{request_id}` (Protocol/AppRoutes.md §7.2).
    public static let traceroute = APIRoute<PathIDPair, NoBody, TracerouteSnapshot>(
      "traceroute", .get, "/api/servers/{id}/traceroute/{request_id}", .member,
      summary: "one traceroute as far as it got")
    /// `DELETE /api/servers/{id}/traceroute/{request_id}` (Protocol/AppRoutes.md §7.4).
    public static let deleteTraceroute = APIRoute<PathIDPair, NoBody, Ignored>(
      "deleteTraceroute", .delete, "/api/servers/{id}/traceroute/{request_id}", .admin,
      summary: "delete one traceroute")
    /// `DELETE /api/servers/{id}/traceroute` (Protocol/AppRoutes.md §7.4).
    public static let clearTraceroutes = APIRoute<PathID, NoBody, TracerouteCleared>(
      "clearTraceroutes", .delete, "/api/servers/{id}/traceroute", .admin,
      summary: "delete a server's traceroute history")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      tracerouteHistory.erased, startTraceroute.erased, traceroute.erased,
      deleteTraceroute.erased, clearTraceroutes.erased,
    ]
  }
}
