import Foundation
public import RealtimeStream
public import ServerBeeAPI
public import ServerBeeModels

/// The live fleet of the signed-in server: the `/api/ws/servers` stream with the server
/// configuration from `GET /api/servers` merged in, started by ``ServerBeeClient/watchFleet()``.
///
/// ```swift
/// let fleet = try await client.watchFleet()
/// let first = try await fleet.firstSync()          // all servers, with names and totals
/// for await snapshot in await fleet.stream.snapshots() { redraw(snapshot) }
/// await fleet.stop()
/// ```
public struct LiveFleet: Sendable {
  /// The stream client (snapshots, events, connection status).
  public let stream: MetricsStreamClient

  /// Wraps a started stream.
  /// - Parameter stream: The stream client.
  public init(stream: MetricsStreamClient) { self.stream = stream }

  /// Starts the live fleet of `server` on an API key, without a mobile session (a bot, a
  /// dashboard): `GET /api/servers` and the stream both send `X-API-Key`, and nothing is ever
  /// refreshed (a deleted key makes the stream wait to reconnect; ``firstSync(timeout:)``
  /// then fails).
  ///
  /// ```swift
  /// let key = try APIKey(ProcessInfo.processInfo.environment["SERVERBEE_API_KEY"] ?? "")
  /// let fleet = try await LiveFleet.watch(
  ///   server: try ServerURL("https://monitor.example.com"), apiKey: key,
  ///   transports: .platformDefault(.init(deviceName: "wallboard")))
  /// print(try await fleet.firstSync().servers.count)
  /// await fleet.stop()
  /// ```
  /// - Parameters:
  ///   - server: The key's server.
  ///   - apiKey: The key.
  ///   - transports: HTTP and WebSocket, for example ``ServerBeeClient/Transports/platformDefault(_:)``.
  /// - Returns: The started fleet; call ``stop()`` when done.
  /// - Throws: `ServerBeeAPIError` from the configuration request (`.unauthorized` for a
  ///   rejected key).
  public static func watch(
    server: ServerURL, apiKey: APIKey, transports: ServerBeeClient.Transports
  ) async throws -> LiveFleet {
    try await start(
      api: ServerBeeAPIClient(server: server, apiKey: apiKey, transport: transports.http),
      stream: MetricsStreamClient(server: server, tokens: apiKey, transport: transports.webSocket))
  }

  /// Fetches the configuration, merges it into `stream` (names and totals before the first
  /// update) and starts it: the one way both credentials start a fleet.
  static func start(api: ServerBeeAPIClient, stream: MetricsStreamClient) async throws
    -> LiveFleet
  {
    let configurations = try await api.servers()
    await stream.mergeConfiguration(configurations)
    await stream.start()
    return LiveFleet(stream: stream)
  }

  /// Waits for the first `full_sync`.
  /// - Parameter timeout: The longest wait; 20 s by default.
  /// - Returns: The synchronised fleet.
  /// - Throws: ``ServerBeeClientError`` with `.streamFailed` when the connection fails before
  ///   the first sync (it starts waiting to reconnect) or nothing arrives in time;
  ///   `CancellationError` when the caller is cancelled.
  public func firstSync(timeout: Duration = .seconds(20)) async throws -> FleetState {
    let stream = self.stream
    return try await withThrowingTaskGroup(of: FleetState?.self) { group in
      group.addTask {
        for await fleet in await stream.snapshots() where fleet.isSynchronized { return fleet }
        return nil
      }
      group.addTask {
        for await event in await stream.events() {
          if case .connection(.waitingToReconnect) = event {
            throw ServerBeeClientError(.streamFailed, "the live stream could not connect")
          }
        }
        return nil
      }
      group.addTask {
        try await ContinuousClock().sleep(for: timeout)
        throw ServerBeeClientError(
          .streamFailed,
          "no full sync from the live stream within \(timeout.components.seconds) s")
      }
      defer { group.cancelAll() }
      while let next = try await group.next() {
        if let fleet = next { return fleet }
      }
      throw ServerBeeClientError(.streamFailed, "the live stream stopped before its first sync")
    }
  }

  /// Stops the stream (the socket closes; snapshot and event streams finish).
  public func stop() async { await stream.stop() }
}
