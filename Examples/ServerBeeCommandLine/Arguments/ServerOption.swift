import ServerBeeModels

/// Checks a server URL typed by the user (`--server`, the login prompt) before it is used, so a
/// missing scheme gets a sentence that says what to add.
enum ServerOption {
  /// The URL as typed, once it is an `http(s)://` URL the SDK accepts.
  /// - Parameter text: What the user typed.
  /// - Returns: `text`.
  /// - Throws: ``CommandLineError`` with `.usage`: no scheme (`host:port`), another scheme, or
  ///   not a valid URL.
  @discardableResult
  static func checked(_ text: String) throws -> String {
    let shown = TerminalText.safe(text)
    let lowered = text.lowercased()
    guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
      guard text.contains("://") else {
        throw CommandLineError(
          .usage, "the server URL '\(shown)' has no scheme: add https:// (https://\(shown))")
      }
      throw CommandLineError(
        .usage, "the server URL '\(shown)' must start with https:// (or http://)")
    }
    guard (try? ServerURL(text)) != nil else {
      throw CommandLineError(.usage, "'\(shown)' is not a valid server URL")
    }
    return text
  }
}
