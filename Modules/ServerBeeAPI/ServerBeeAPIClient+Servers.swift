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
}
