public import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

extension ServerBeeError.Code where Domain == ServerBeeAPIDomain {
  /// The server's Docker capability (bit 128) is not in effect: the agent may not touch Docker
  /// (the documented 403 `agent_capability_disabled`, Protocol/AppRoutes.md §8.1).
  public static let dockerCapabilityDisabled = Self("docker_capability_disabled")
  /// The server's agent does not report Docker, or said Docker is unavailable (the documented
  /// 403 `Docker is not available on this server`, Protocol/AppRoutes.md §8.1).
  public static let dockerUnavailable = Self("docker_unavailable")
  /// The server's agent did not answer in time (the documented 408 `Agent did not respond
  /// within 30s`, Protocol/AppRoutes.md §8.1).
  public static let agentDidNotRespond = Self("agent_did_not_respond")
}

extension ServerBeeAPIClient {
  /// `GET /api/servers/{id}/docker/containers`: the containers the agent last reported
  /// (Protocol/AppRoutes.md §8.2). Any member.
  ///
  /// ```swift
  /// for container in try await api.dockerContainers(serverID: server.id) {
  ///   print(container.displayName, container.state)
  /// }
  /// ```
  /// - Parameter serverID: The server.
  /// - Returns: The containers (may be empty).
  /// - Throws: ``ServerBeeAPIError``: `.notFound` for an unknown server,
  ///   `.dockerCapabilityDisabled`, `.dockerUnavailable`, `.agentOffline`,
  ///   `.agentDidNotRespond` (Protocol/AppRoutes.md §8.1), or `CancellationError`.
  public func dockerContainers(serverID: String) async throws -> [DockerContainer] {
    try await dockerRead(RouteCatalogue.Docker.dockerContainers, serverID).containers
  }

  /// `GET /api/servers/{id}/docker/stats`: each container's resource use
  /// (Protocol/AppRoutes.md §8.2). Any member.
  ///
  /// ```swift
  /// let stats = try await api.dockerStats(serverID: server.id)
  /// ```
  /// - Parameter serverID: The server.
  /// - Returns: One sample per container.
  /// - Throws: As ``dockerContainers(serverID:)``.
  public func dockerStats(serverID: String) async throws -> [DockerContainerStats] {
    try await dockerRead(RouteCatalogue.Docker.dockerStats, serverID).stats
  }

  /// `GET /api/servers/{id}/docker/info`: the Docker engine (Protocol/AppRoutes.md §8.2). Any
  /// member.
  ///
  /// ```swift
  /// let info = try await api.dockerInfo(serverID: server.id)
  /// print(info.dockerVersion, info.containersRunning)
  /// ```
  /// - Parameter serverID: The server.
  /// - Returns: The engine.
  /// - Throws: As ``dockerContainers(serverID:)``.
  public func dockerInfo(serverID: String) async throws -> DockerInfo {
    try await dockerRead(RouteCatalogue.Docker.dockerInfo, serverID).info
  }

  /// `GET /api/servers/{id}/docker/events?limit=`: the events the server stored, newest first
  /// (Protocol/AppRoutes.md §8.2). Any member. Unlike the other reads it works while the
  /// agent is offline or without Docker: only the server and the capability are checked.
  ///
  /// ```swift
  /// for event in try await api.dockerEvents(serverID: server.id, limit: 20) {
  ///   print(event.action, event.actorName ?? event.actorID)
  /// }
  /// ```
  /// - Parameters:
  ///   - serverID: The server.
  ///   - limit: At most this many; `nil` for the server's 100.
  /// - Returns: The events.
  /// - Throws: ``ServerBeeAPIError`` (`.invalidArgument` for a negative limit, checked before
  ///   sending; `.notFound`, `.dockerCapabilityDisabled`), or `CancellationError`.
  public func dockerEvents(serverID: String, limit: Int? = nil) async throws -> [DockerEvent] {
    guard (limit ?? 0) >= 0 else {
      throw ServerBeeAPIError(.invalidArgument, "the events limit must not be negative")
    }
    return try await dockerRead(
      RouteCatalogue.Docker.dockerEvents, serverID, query: [("limit", limit.map(String.init))]
    ).events
  }

  /// `GET /api/servers/{id}/docker/networks`: the networks, asked of the agent
  /// (Protocol/AppRoutes.md §8.2). Any member.
  ///
  /// ```swift
  /// let networks = try await api.dockerNetworks(serverID: server.id)
  /// ```
  /// - Parameter serverID: The server.
  /// - Returns: The networks.
  /// - Throws: As ``dockerContainers(serverID:)``.
  public func dockerNetworks(serverID: String) async throws -> [DockerNetwork] {
    try await dockerRead(RouteCatalogue.Docker.dockerNetworks, serverID).networks
  }

  /// `GET /api/servers/{id}/docker/volumes`: the volumes, asked of the agent
  /// (Protocol/AppRoutes.md §8.2). Any member.
  ///
  /// ```swift
  /// let volumes = try await api.dockerVolumes(serverID: server.id)
  /// ```
  /// - Parameter serverID: The server.
  /// - Returns: The volumes.
  /// - Throws: As ``dockerContainers(serverID:)``.
  public func dockerVolumes(serverID: String) async throws -> [DockerVolume] {
    try await dockerRead(RouteCatalogue.Docker.dockerVolumes, serverID).volumes
  }

  /// `POST /api/servers/{id}/docker/containers/{cid}/action`: starts, stops, restarts or
  /// removes a container (Protocol/AppRoutes.md §8.3). **Admin only.** The agent's own
  /// failure is not thrown: it is a result with `success` false and the agent's words.
  ///
  /// ```swift
  /// let result = try await api.dockerContainerAction(
  ///   serverID: server.id, containerID: container.id, .restart(timeout: 10))
  /// if !result.success { print(result.error ?? "the agent refused") }
  /// ```
  /// - Parameters:
  ///   - serverID: The server.
  ///   - containerID: The container's id (or name, as the agent takes either).
  ///   - action: What to do.
  /// - Returns: The agent's answer.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an empty id (checked before
  ///   sending), `.forbidden` for a member, the gate's codes as
  ///   ``dockerContainers(serverID:)``, or `CancellationError`.
  public func dockerContainerAction(
    serverID: String, containerID: String, _ action: DockerContainerAction
  ) async throws -> DockerActionResult {
    try Self.requireNonEmpty(serverID, "the server id")
    try Self.requireNonEmpty(containerID, "the container id")
    do {
      return try await send(
        RouteCatalogue.Docker.dockerContainerAction, PathIDPair(serverID, containerID),
        body: DockerActionRequest(action: action))
    } catch let error as ServerBeeAPIError {
      throw Self.dockerRefusal(error)
    }
  }

  /// Sends one of the member reads with its gate's refusals made typed.
  private func dockerRead<Response>(
    _ route: APIRoute<PathID, NoBody, Response>, _ serverID: String,
    query: [(String, String?)] = []
  ) async throws -> Response {
    try Self.requireNonEmpty(serverID, "the server id")
    do {
      return try await send(route, PathID(serverID), query: query)
    } catch let error as ServerBeeAPIError {
      throw Self.dockerRefusal(error)
    }
  }

  /// `error` with the code and sentence of the Docker gate's documented refusals
  /// (Protocol/AppRoutes.md §8.1); any other error unchanged.
  static func dockerRefusal(_ error: ServerBeeAPIError) -> ServerBeeAPIError {
    let detail = error.apiFailure?.detail ?? ""
    var typed = error
    switch (error.httpStatus, detail) {
    case (403?, "agent_capability_disabled"):
      typed.code = .dockerCapabilityDisabled
      typed.message =
        "Docker is turned off for this server: its agent does not grant the docker capability"
    case (403?, "Docker is not available on this server"):
      typed.code = .dockerUnavailable
      typed.message = "Docker is not available on this server: its agent does not report it"
    case (404?, "Server offline"):
      typed.code = .agentOffline
      typed.message = "the server's agent is offline, so its Docker engine cannot be reached"
    case (408?, _):
      typed.code = .agentDidNotRespond
      typed.message = "the server's agent did not answer within 30 seconds"
    case (404?, "Server not found"):
      typed.message = "there is no such server"
    default:
      return error
    }
    return typed
  }
}
