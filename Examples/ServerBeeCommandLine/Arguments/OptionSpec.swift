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

  /// `--name VALUE` or `--flag`, as help and usage lines show it.
  var label: String { "--" + name + (valueName.map { " " + $0 } ?? "") }

  /// `--api-key KEY`: the commands that work without a mobile session declare it (the
  /// top-level help lists them; `APICredential` reads it).
  static let apiKey = OptionSpec(
    name: "api-key", valueName: "KEY",
    help: "use an API key, not the session (or $SERVERBEE_API_KEY; with --server or "
      + "$SERVERBEE_SERVER)")

  /// `--yes`: every destructive command has it (``CommandDeclaration`` adds it); it answers
  /// the confirmation without a terminal. `notifications enable` declares its own, for the
  /// privacy notice.
  static let yes = OptionSpec(
    name: "yes", valueName: nil, help: "do it without asking (needed when stdin is no terminal)")
}

/// One positional argument of a command.
struct ArgumentSpec: Sendable, Hashable {
  /// How many values the argument takes.
  enum Arity: Sendable, Hashable {
    /// Exactly one.
    case required
    /// None or one.
    case optional
    /// Any number, at the end.
    case variadic
  }

  /// The placeholder, for example `"ID"`.
  var name: String
  /// How many values it takes.
  var arity: Arity

  /// A required argument.
  static func required(_ name: String) -> ArgumentSpec {
    ArgumentSpec(name: name, arity: .required)
  }
  /// An optional argument.
  static func optional(_ name: String) -> ArgumentSpec {
    ArgumentSpec(name: name, arity: .optional)
  }
  /// Any number of values.
  static func variadic(_ name: String) -> ArgumentSpec {
    ArgumentSpec(name: name, arity: .variadic)
  }

  /// `ID`, `[ID]` or `[ID…]`, as usage lines show it.
  var label: String {
    switch arity {
    case .required: name
    case .optional: "[\(name)]"
    case .variadic: "[\(name)…]"
    }
  }
}
