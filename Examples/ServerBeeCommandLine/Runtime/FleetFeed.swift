import AuthSession
import Foundation
import RealtimeStream
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTransport

/// The live fleet of the signed-in server: the SDK's stream client plus the configuration from
/// `GET /api/servers`.
struct FleetFeed: Sendable {
  /// The stream client.
  let stream: MetricsStreamClient

  /// Runs `body` with a started feed, stopping it afterwards whatever happens.
  /// - Parameters:
  ///   - session: The signed-in session.
  ///   - server: The signed-in server.
  ///   - body: The work with the feed.
  /// - Returns: What `body` returns.
  /// - Throws: The errors of ``start(session:server:)`` and of `body`.
  static func with<T>(
    session: ClientSession, server: ServerURL, _ body: (FleetFeed) async throws -> T
  ) async throws -> T {
    let feed = try await start(session: session, server: server)
    let result = await Result { try await body(feed) }
    await feed.stop()
    return try result.get()
  }

  /// Fetches the configuration, starts the stream and merges the configuration into it.
  /// - Throws: The configuration request's errors (which also validate the session).
  static func start(session: ClientSession, server: ServerURL) async throws -> FleetFeed {
    let configurations = try await ServerBeeAPIClient(server: server, transport: session.api)
      .servers()
    let stream = MetricsStreamClient(
      server: server, tokens: session.auth, transport: SocketWebSocketTransport())
    await stream.mergeConfiguration(configurations)
    await stream.start()
    return FleetFeed(stream: stream)
  }

  /// Waits for the first `full_sync`.
  /// - Parameter timeout: The longest wait.
  /// - Returns: The synchronised fleet.
  /// - Throws: ``CommandLineError`` with `.streamFailed` when the connection fails before the
  ///   first sync or nothing arrives in time.
  func firstSync(timeout: Duration = .seconds(20)) async throws -> FleetState {
    let stream = self.stream
    return try await withThrowingTaskGroup(of: FleetState?.self) { group in
      group.addTask {
        for await fleet in await stream.snapshots() where fleet.isSynchronized { return fleet }
        return nil
      }
      group.addTask {
        for await event in await stream.events() {
          if case .connection(.waitingToReconnect) = event {
            throw CommandLineError(.streamFailed, "the live stream could not connect")
          }
        }
        return nil
      }
      group.addTask {
        try await ContinuousClock().sleep(for: timeout)
        throw CommandLineError(
          .streamFailed, "no full sync from the live stream within \(timeout.components.seconds) s")
      }
      defer { group.cancelAll() }
      while let next = try await group.next() {
        if let fleet = next { return fleet }
      }
      throw CommandLineError(.streamFailed, "the live stream stopped before its first sync")
    }
  }

  /// Stops the stream.
  func stop() async { await stream.stop() }
}
