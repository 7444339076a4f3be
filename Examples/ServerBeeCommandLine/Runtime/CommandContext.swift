import Foundation
import ServerBeeModels

/// What every command gets: its arguments, the console and the home directory.
struct CommandContext: Sendable {
  /// The parsed command line.
  let arguments: ParsedArguments
  /// Where output goes.
  let console: Console
  /// The state directory.
  let home: URL
  /// The process environment (`SERVERBEE_API_KEY`, `SERVERBEE_SERVER`, …).
  let environment: [String: String]

  /// The `--server` value, if given.
  var server: String? { arguments.values["server"] }

  /// Opens the store, restores the login and finishes queued sign-outs (best effort).
  /// - Parameter relay: The `serverbee-relay` that issues this installation's device token
  ///   (``RelayOption``); `nil` keeps the stored token.
  /// - Returns: The restored session.
  /// - Throws: `SecureStoreError` or `AuthSessionError` when the store cannot be used.
  func openSession(relay: URL? = nil) async throws -> ClientSession {
    let session = try ClientSession.open(home: home, console: console, relay: relay)
    try await session.prepare()
    return session
  }
}
