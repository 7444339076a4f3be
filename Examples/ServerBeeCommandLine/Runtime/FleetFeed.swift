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
    let feed = FleetFeed(fleet: try await session.client.watchFleet())
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
