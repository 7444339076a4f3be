import ServerBeeModels

/// The command line split into a subcommand, options and positional arguments.
struct ParsedArguments: Sendable, Hashable {
  /// The subcommand, or `nil` when none was given.
  var command: String?
  /// Options with values, by name (the last occurrence wins).
  var values: [String: String] = [:]
  /// Flags that were given, by name.
  var flags: Set<String> = []
  /// Positional arguments after the subcommand.
  var positionals: [String] = []

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
