public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// A server's Docker engine, through its agent (`Documentation/Protocol/AppRoutes.md §8`): any
  /// member reads it, behind the read gate of Protocol/AppRoutes.md §8.1; acting on a container
  /// and the logs socket are admin-only.
  public enum Docker {
    /// How long the server waits for the agent on a route that asks it before answering 408
    /// (Protocol/AppRoutes.md §8.1): info (when not cached), networks, volumes and actions.
    public static let agentWait: Duration = .seconds(30)

    /// `GET /api/servers/{id}/docker/containers` (Protocol/AppRoutes.md §8.2).
    public static let dockerContainers = APIRoute<PathID, NoBody, DockerContainersResponse>(
      "dockerContainers", .get, "/api/servers/{id}/docker/containers", .member,
      summary: "a server's Docker containers")
    /// `GET /api/servers/{id}/docker/stats` (Protocol/AppRoutes.md §8.2).
    public static let dockerStats = APIRoute<PathID, NoBody, DockerStatsResponse>(
      "dockerStats", .get, "/api/servers/{id}/docker/stats", .member,
      summary: "each container's CPU, memory, network and disk use")
    /// `GET /api/servers/{id}/docker/info` (Protocol/AppRoutes.md §8.2).
    public static let dockerInfo = APIRoute<PathID, NoBody, DockerInfoResponse>(
      "dockerInfo", .get, "/api/servers/{id}/docker/info", .member, serverWait: agentWait,
      summary: "a server's Docker engine: version, counts, memory")
    /// `GET /api/servers/{id}/docker/events?limit=` (Protocol/AppRoutes.md §8.2).
    public static let dockerEvents = APIRoute<PathID, NoBody, DockerEventsResponse>(
      "dockerEvents", .get, "/api/servers/{id}/docker/events", .member, query: ["limit"],
      summary: "a server's stored Docker events, newest first")
    /// `GET /api/servers/{id}/docker/networks` (Protocol/AppRoutes.md §8.2).
    public static let dockerNetworks = APIRoute<PathID, NoBody, DockerNetworksResponse>(
      "dockerNetworks", .get, "/api/servers/{id}/docker/networks", .member,
      serverWait: agentWait, summary: "a server's Docker networks")
    /// `GET /api/servers/{id}/docker/volumes` (Protocol/AppRoutes.md §8.2).
    public static let dockerVolumes = APIRoute<PathID, NoBody, DockerVolumesResponse>(
      "dockerVolumes", .get, "/api/servers/{id}/docker/volumes", .member,
      serverWait: agentWait, summary: "a server's Docker volumes")
    /// `POST /api/servers/{id}/docker/containers/{cid}/action` (Protocol/AppRoutes.md §8.3).
    public static let dockerContainerAction = APIRoute<
      PathIDPair, DockerActionRequest, DockerActionResult
    >(
      "dockerContainerAction", .post, "/api/servers/{id}/docker/containers/{cid}/action", .admin,
      serverWait: agentWait, summary: "start, stop, restart or remove a container")

    /// `GET /api/ws/docker/logs/{server_id}`: one container's log lines at a time
    /// (Protocol/AppRoutes.md §8.4).
    public static let dockerLogs = SocketRoute(
      "dockerLogs", "/api/ws/docker/logs/{server_id}", .admin,
      summary: "a container's log lines: session, subscribe, logs, unsubscribe")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      dockerContainers.erased, dockerStats.erased, dockerInfo.erased, dockerEvents.erased,
      dockerNetworks.erased, dockerVolumes.erased, dockerContainerAction.erased,
    ]
  }
}
