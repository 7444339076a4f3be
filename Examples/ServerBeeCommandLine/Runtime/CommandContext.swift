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

  /// The `--server` value, if given.
  var server: String? { arguments.values["server"] }

  /// Opens the store, restores the login and finishes queued sign-outs (best effort).
  func openSession() async throws -> ClientSession {
    let session = try ClientSession.open(home: home, console: console)
    try await session.prepare()
    return session
  }
}
