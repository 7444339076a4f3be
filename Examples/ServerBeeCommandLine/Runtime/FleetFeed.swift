import AuthSession
import Foundation
import RealtimeStream
import ServerBeeKit
import ServerBeeModels
import ServerBeeTransport

/// The live fleet of the signed-in server for a command: the SDK's `LiveFleet`
/// (`ServerBeeClient.watchFleet()`), with its failures named as command-line errors.
struct FleetFeed: Sendable {
  /// The SDK's live fleet.
  let fleet: LiveFleet
  /// The stream client.
  var stream: MetricsStreamClient { fleet.stream }

  /// Runs `body` with a started feed, stopping it afterwards whatever happens.
  /// - Parameters:
  ///   - session: The signed-in session.
  ///   - server: The signed-in server (checked by the caller).
  ///   - body: The work with the feed.
  /// - Returns: What `body` returns.
  /// - Throws: The errors of `watchFleet()` and of `body`.
  static func with<T>(
    session: ClientSession, server: ServerURL, _ body: (FleetFeed) async throws -> T
  ) async throws -> T {
    try await run(FleetFeed(fleet: try await session.client.watchFleet()), body)
  }

  /// Runs `body` with a feed on the command's credential: the API key when one is given
  /// (`--api-key` or `SERVERBEE_API_KEY`, with `--server`), else the stored session.
  /// - Parameters:
  ///   - context: The command.
  ///   - body: The work with the feed and its server.
  /// - Returns: What `body` returns.
  /// - Throws: ``CommandLineError`` for a bad key or no session, the errors of starting the
  ///   fleet, and those of `body`.
  static func with<T>(
    _ context: CommandContext, _ body: (FleetFeed, ServerURL) async throws -> T
  ) async throws -> T {
    if let (server, key) = try APICredential.key(context) {
      let fleet = try await LiveFleet.watch(
        server: server, apiKey: key, transports: APICredential.transports(context))
      return try await run(FleetFeed(fleet: fleet)) { try await body($0, server) }
    }
    let session = try await context.openSession()
    let identity = try await session.requireSignedIn(server: context.server)
    return try await with(session: session, server: identity.server) {
      try await body($0, identity.server)
    }
  }

  /// Runs `body`, then stops the feed whatever happened.
  private static func run<T>(_ feed: FleetFeed, _ body: (FleetFeed) async throws -> T)
    async throws -> T
  {
    let result = await Result { try await body(feed) }
    await feed.stop()
    return try result.get()
  }

  /// Waits for the first `full_sync`.
  /// - Parameter timeout: The longest wait.
  /// - Returns: The synchronised fleet.
  /// - Throws: ``CommandLineError`` with `.streamFailed` when the connection fails before the
  ///   first sync or nothing arrives in time.
  func firstSync(timeout: Duration = .seconds(20)) async throws -> FleetState {
    do {
      return try await fleet.firstSync(timeout: timeout)
    } catch let error as ServerBeeClientError where error.code == .streamFailed {
      throw CommandLineError(.streamFailed, error.message)
    }
  }

  /// Stops the stream.
  func stop() async { await fleet.stop() }
}
