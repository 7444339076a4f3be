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
  /// - Throws: `SecureStoreError` or `AuthSessionError` when the store cannot be used;
  ///   ``CommandLineError`` `.usage` when `--api-key` was given.
  func openSession(relay: URL? = nil) async throws -> ClientSession {
    // A command whose routes all take a key but whose work reads this installation's login
    // (its content keys, its relay device) never silently drops a key it was given.
    if arguments.values[OptionSpec.apiKey.name] != nil {
      throw CommandLineError(
        .usage,
        "'\(arguments.command ?? "serverbee")' needs this installation's mobile session: an API "
          + "key has none of its keys or devices; sign in with 'serverbee login' or "
          + "'serverbee pair'")
    }
    let session = try ClientSession.open(home: home, console: console, relay: relay)
    try await session.prepare()
    return session
  }
}
