public import Foundation
public import RealtimeStream
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
