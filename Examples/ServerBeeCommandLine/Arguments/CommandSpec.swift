/// One option a command accepts.
struct OptionSpec: Sendable, Hashable {
  /// The name without dashes, for example `"duration"`.
  var name: String
  /// The value's placeholder (`"S"`), or `nil` for a flag.
  var valueName: String?
  /// One line for the help text.
  var help: String

  /// Whether the option takes a value.
  var takesValue: Bool { valueName != nil }

  /// `--api-key KEY`: the commands that work without a mobile session declare it (the
  /// top-level help lists them; `APICredential` reads it).
  static let apiKey = OptionSpec(
    name: "api-key", valueName: "KEY",
    help: "use an API key, not the session (or $SERVERBEE_API_KEY; needs --server)")
}

/// What a subcommand accepts and how its help text reads.
struct CommandSpec: Sendable {
  /// The subcommand name, for example `"watch"`.
  var name: String
  /// One line for the global help.
  var summary: String
  /// The usage line after `serverbee`, for example `"pair 'QR-PAYLOAD-JSON'"`.
  var usage: String
  /// The options besides the global ones.
  var options: [OptionSpec]
  /// How many positional arguments are allowed.
  var positionals: ClosedRange<Int> = 0...0
  /// A longer description shown by `--help`.
  var discussion: String
  /// Example invocations shown by `--help`.
  var examples: [String]

  /// The option with that name, if the command (or the global set) accepts it.
  func option(named name: String) -> OptionSpec? {
    (options + CommandCatalog.globalOptions).first { $0.name == name }
  }
}
