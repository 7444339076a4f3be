import Foundation
public import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

extension ServerBeeAPIClient {
  /// `GET /api/servers`: the configuration of every server, hidden ones included
  /// (Protocol/Servers.md §1).
  ///
  /// The REST object holds no live state; merge it with the WebSocket stream by `id`.
  ///
  /// ```swift
  /// let servers = try await api.servers()
  /// let names = Dictionary(uniqueKeysWithValues: servers.map { ($0.id, $0.name) })
  /// ```
  /// - Returns: The servers, in the server's order.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func servers() async throws -> [ServerResponse] {
    try await send(RouteCatalogue.Servers.servers)
  }

  /// `GET /api/servers/{id}`: one server's configuration (Protocol/Servers.md §1).
  ///
  /// ```swift
  /// let server = try await api.server(id: event.serverID)
  /// ```
  /// - Parameter id: The server id.
  /// - Returns: The server.
  /// - Throws: ``ServerBeeAPIError`` (`.notFound` for an unknown id, `.invalidArgument` for an
  ///   empty one), or `CancellationError`.
  public func server(id: String) async throws -> ServerResponse {
    try Self.requireNonEmpty(id, "the server id")
    return try await send(RouteCatalogue.Servers.server, PathID(id))
  }

  /// `GET /api/servers/{id}/records?from=…&to=…&interval=…`: metric samples, oldest first
  /// (Protocol/Servers.md §2).
  ///
  /// Times are sent in the `Z` form. An unknown server id gives an empty array, not an error.
  ///
  /// ```swift
  /// let day = ServerRecordsQuery(from: yesterday, to: now, interval: .raw)
  /// let records = try await api.records(serverID: id, query: day)
  /// ```
  /// - Parameters:
  ///   - serverID: The server id.
  ///   - query: The range and resolution.
  /// - Returns: The records in ascending time order.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func records(serverID: String, query: ServerRecordsQuery) async throws -> [ServerRecord] {
    try Self.requireNonEmpty(serverID, "the server id")
    return try await send(
      RouteCatalogue.Servers.records, PathID(serverID),
      query: query.queryItems.map { ($0.name, $0.value) })
  }

  /// `GET /api/servers/{id}/records`: metric samples between two times (Protocol/Servers.md §2).
  ///
  /// ```swift
  /// let end = RFC3339Timestamp(Date())
  /// let start = RFC3339Timestamp(Date().addingTimeInterval(-3600))
  /// let lastHour = try await api.records(serverID: id, from: start, to: end)
  /// ```
  /// - Parameters:
  ///   - serverID: The server id.
  ///   - from: Range start.
  ///   - to: Range end.
  ///   - interval: Resolution, `auto` by default (hourly for ranges over 24 h).
  /// - Returns: The records in ascending time order.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func records(
    serverID: String, from: RFC3339Timestamp, to: RFC3339Timestamp,
    interval: RecordInterval = .auto
  ) async throws -> [ServerRecord] {
    try await records(
      serverID: serverID, query: ServerRecordsQuery(from: from, to: to, interval: interval))
  }

  /// `GET /api/server-groups`: every server group, to turn a `group_id` into a name
  /// (Protocol/Servers.md §3).
  ///
  /// ```swift
  /// let groups = try await api.serverGroups()
  /// let groupName = groups.first { $0.id == server.groupID }?.name
  /// ```
  /// - Returns: The groups.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func serverGroups() async throws -> [ServerGroup] {
    try await send(RouteCatalogue.Servers.serverGroups)
  }

  /// `PUT /api/servers/{id}`: changes the fields `update` sets and answers the server after the
  /// change (Protocol/Servers.md §4.1). Admin only.
  ///
  /// ```swift
  /// var edit = ServerUpdateRequest(name: "web-fra-2")
  /// edit.groupID = .clear          // out of its group
  /// edit.price = .set(4.5)
  /// let server = try await api.updateServer(id: id, edit)
  /// ```
  /// - Parameters:
  ///   - id: The server id.
  ///   - update: The fields to change; at least one.
  /// - Returns: The server after the change.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` (an empty id or an empty update),
  ///   `.notFound`, `.validation` (price, billing cycle, traffic limit type, billing day or
  ///   country code out of range). Or `CancellationError`.
  public func updateServer(id: String, _ update: ServerUpdateRequest) async throws
    -> ServerResponse
  {
    try Self.requireNonEmpty(id, "the server id")
    guard !update.isEmpty else {
      throw ServerBeeAPIError(.invalidArgument, "give at least one field to change")
    }
    return try await send(RouteCatalogue.Servers.updateServer, PathID(id), body: update)
  }

  /// `GET /api/servers/{id}/tags`: one server's tags, sorted (Protocol/Servers.md §4.2). An
  /// unknown server has none.
  ///
  /// ```swift
  /// let tags = try await api.serverTags(serverID: id)
  /// ```
  /// - Parameter serverID: The server id.
  /// - Returns: The tags, ascending.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func serverTags(serverID: String) async throws -> [String] {
    try Self.requireNonEmpty(serverID, "the server id")
    return try await send(RouteCatalogue.Servers.serverTags, PathID(serverID))
  }

  /// `PUT /api/servers/{id}/tags`: replaces one server's tags (Protocol/Servers.md §4.2). Admin
  /// only.
  ///
  /// ```swift
  /// let tags = try await api.setServerTags(serverID: id, ["prod", " eu", "prod"])
  /// // ["eu", "prod"]: trimmed, deduplicated, sorted
  /// ```
  /// - Parameters:
  ///   - serverID: The server id.
  ///   - tags: The whole new list (at most 8 entries); `[]` removes every tag.
  /// - Returns: The list as the server keeps it: trimmed, without duplicates or empty entries,
  ///   sorted.
  /// - Throws: ``ServerBeeAPIError``: `.validation` (more than 8, longer than 16 characters, a
  ///   character other than ASCII letters, digits, `_`, `-` and `.`). Or `CancellationError`.
  public func setServerTags(serverID: String, _ tags: [String]) async throws -> [String] {
    try Self.requireNonEmpty(serverID, "the server id")
    return try await send(
      RouteCatalogue.Servers.setServerTags, PathID(serverID), body: ServerTagsRequest(tags: tags))
  }

  /// `POST /api/server-groups`: a new group, weight 0 (Protocol/Servers.md §4.3). Admin only.
  ///
  /// ```swift
  /// let group = try await api.createServerGroup(name: "Production")
  /// ```
  /// - Parameter name: The name: not empty, not another group's.
  /// - Returns: The new group.
  /// - Throws: ``ServerBeeAPIError``: `.validation` (empty name), `.conflict` (a group has that
  ///   name). Or `CancellationError`.
  public func createServerGroup(name: String) async throws -> ServerGroup {
    try await send(
      RouteCatalogue.Servers.createServerGroup, body: ServerGroupCreateRequest(name: name))
  }

  /// `PUT /api/server-groups/{id}`: renames a group, re-weights it, or both
  /// (Protocol/Servers.md §4.3). Admin only. A new name may be another group's.
  ///
  /// ```swift
  /// let group = try await api.updateServerGroup(id: id, ServerGroupUpdateRequest(weight: 10))
  /// ```
  /// - Parameters:
  ///   - id: The group id.
  ///   - update: The new name, weight, or both.
  /// - Returns: The group after the change.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` (an empty id, or neither given),
  ///   `.notFound`, `.validation` (empty name). Or `CancellationError`.
  public func updateServerGroup(id: String, _ update: ServerGroupUpdateRequest) async throws
    -> ServerGroup
  {
    try Self.requireNonEmpty(id, "the group id")
    guard update.name != nil || update.weight != nil else {
      throw ServerBeeAPIError(.invalidArgument, "give a new name, a new weight, or both")
    }
    return try await send(RouteCatalogue.Servers.updateServerGroup, PathID(id), body: update)
  }

  /// `DELETE /api/server-groups/{id}`: deletes a group; its servers are left in no group
  /// (Protocol/Servers.md §4.3). Admin only.
  ///
  /// ```swift
  /// try await api.deleteServerGroup(id: group.id)
  /// ```
  /// - Parameter id: The group id.
  /// - Throws: ``ServerBeeAPIError``: `.notFound`. Or `CancellationError`.
  public func deleteServerGroup(id: String) async throws {
    try Self.requireNonEmpty(id, "the group id")
    _ = try await send(RouteCatalogue.Servers.deleteServerGroup, PathID(id))
  }
}
