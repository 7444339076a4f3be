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
    /// `PUT /api/servers/{id}`.
    public static let updateServer = APIRoute<PathID, ServerUpdateRequest, ServerResponse>(
      "updateServer", .put, "/api/servers/{id}", .admin,
      summary: "edit a server's name, group, billing and flag")
    /// `GET /api/servers/{id}/tags`.
    public static let serverTags = APIRoute<PathID, NoBody, [String]>(
      "serverTags", .get, "/api/servers/{id}/tags", .member, summary: "one server's tags")
    /// `PUT /api/servers/{id}/tags`.
    public static let setServerTags = APIRoute<PathID, ServerTagsRequest, [String]>(
      "setServerTags", .put, "/api/servers/{id}/tags", .admin,
      summary: "replace one server's tags")
    /// `POST /api/server-groups`.
    public static let createServerGroup = APIRoute<NoPath, ServerGroupCreateRequest, ServerGroup>(
      "createServerGroup", .post, "/api/server-groups", .admin, summary: "create a server group")
    /// `PUT /api/server-groups/{id}`.
    public static let updateServerGroup = APIRoute<PathID, ServerGroupUpdateRequest, ServerGroup>(
      "updateServerGroup", .put, "/api/server-groups/{id}", .admin,
      summary: "rename or re-weight a server group")
    /// `DELETE /api/server-groups/{id}`.
    public static let deleteServerGroup = APIRoute<PathID, NoBody, String>(
      "deleteServerGroup", .delete, "/api/server-groups/{id}", .admin,
      summary: "delete a server group (its servers leave it)")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      servers.erased, server.erased, records.erased, serverGroups.erased, updateServer.erased,
      serverTags.erased, setServerTags.erased, createServerGroup.erased,
      updateServerGroup.erased, deleteServerGroup.erased,
    ]
  }
}
