import ServerBeeModels

/// The command line split into a command's words, options and positional arguments.
struct ParsedArguments: Sendable, Hashable {
  /// The words of the command (`["account", "2fa", "enable"]`); empty when none was given.
  var words: [String] = []
  /// Options with values, by name (the last occurrence wins).
  var values: [String: String] = [:]
  /// Flags that were given, by name.
  var flags: Set<String> = []
  /// Positional arguments after the command's words.
  var positionals: [String] = []

  /// The command's full name (`"account 2fa enable"`), or `nil` when none was given.
  var command: String? { words.isEmpty ? nil : words.joined(separator: " ") }

  /// The positional argument at `index`, or `""` when there is none (the parser has checked
  /// the count against the command's declaration).
  func argument(_ index: Int) -> String {
    positionals.indices.contains(index) ? positionals[index] : ""
  }

  /// Whether `--help` (or `-h`) was given.
  var wantsHelp: Bool { flags.contains("help") }
  /// Whether `--json` was given.
  var json: Bool { flags.contains("json") }

  /// The value of an option that must be a positive number of seconds, if given.
  func seconds(_ name: String) throws -> Double? {
    guard let text = values[name] else { return nil }
    guard let value = Double(text), value.isFinite, value > 0 else {
      throw CommandLineError(
        .usage, "--\(name) expects a positive number of seconds, got '\(text)'")
    }
    return value
  }
}
