import Foundation
import NotificationPreferences
import ServerBeeModels

/// The `serverbee-relay` this installation is a local device of: `--relay URL`, else
/// `$SERVERBEE_RELAY`, checked as the SDK checks it (`http(s)://host[:port]`).
///
/// `notifications enable --relay URL` passes it to the SDK's `LocalRelayDeviceTokenProvider`,
/// which asks that relay for the device token and stores it with the relay's URL, so later
/// commands (`notifications test`, `push listen`) need no relay option.
enum RelayOption {
  /// The relay URL given on the command line or in the environment, if any.
  /// - Parameters:
  ///   - arguments: The parsed command line.
  ///   - environment: The process environment.
  /// - Returns: The relay's base URL, or `nil` when neither names one.
  /// - Throws: ``CommandLineError`` (usage) for a value that is not an `http(s)` URL.
  static func resolve(
    _ arguments: ParsedArguments,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> URL? {
    if let text = arguments.values["relay"] {
      return try checked(text, source: "--relay")
    }
    if let text = environment["SERVERBEE_RELAY"], !text.isEmpty {
      return try checked(text, source: "SERVERBEE_RELAY")
    }
    return nil
  }

  private static func checked(_ text: String, source: String) throws -> URL {
    do {
      return try LocalRelayDeviceTokenProvider.relayURL(text)
    } catch {
      throw CommandLineError(
        .usage,
        TerminalText.safe(
          "\(source) needs the relay's http(s) URL (for example http://127.0.0.1:8787), "
            + "got '\(text)'"))
    }
  }
}
