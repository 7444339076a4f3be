public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// Servers, their history and groups (`Documentation/Protocol/Servers.md`).
  public enum Servers {
    /// `GET /api/servers`.
    public static let servers = APIRoute<NoPath, NoBody, [ServerResponse]>(
      "servers", .get, "/api/servers", .member, summary: "every server's configuration and state")
    /// `GET /api/servers/{id}`.
    public static let server = APIRoute<PathID, NoBody, ServerResponse>(
      "server", .get, "/api/servers/{id}", .member, summary: "one server")
    /// `GET /api/servers/{id}/records`.
    public static let records = APIRoute<PathID, NoBody, [ServerRecord]>(
      "records", .get, "/api/servers/{id}/records", .member, query: ["from", "to", "interval"],
      summary: "one server's metric history")
    /// `GET /api/server-groups`.
    public static let serverGroups = APIRoute<NoPath, NoBody, [ServerGroup]>(
      "serverGroups", .get, "/api/server-groups", .member, summary: "the server groups")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      servers.erased, server.erased, records.erased, serverGroups.erased,
    ]
  }
}
