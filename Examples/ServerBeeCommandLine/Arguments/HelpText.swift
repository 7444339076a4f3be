import ServerBeeModels

/// The help texts, all derived from ``CommandCatalog``: `serverbee --help`,
/// `serverbee COMMAND --help` and `serverbee help COMMAND [SUB…]`.
enum HelpText {
  /// The global help: usage, the list of commands, global options and the environment.
  static func global() -> String {
    var lines = [
      "serverbee: a ServerBee mobile client for the terminal",
      "",
      "usage: serverbee [--home DIR] [--server URL] [--json] COMMAND [OPTIONS]",
      "",
      "commands:",
    ]
    lines += commandLines(CommandCatalog.all)
    lines += ["", "global options:"] + optionLines(CommandCatalog.globalOptions)
    let keyCommands = CommandCatalog.all.filter { $0.option(named: "api-key") != nil }
      .map(\.words[0]).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    lines += [
      "", "environment:",
      "  SERVERBEE_HOME     the state directory (when --home is not given)",
      "  SERVERBEE_CA_FILE  a PEM CA to trust as well (private CA or self-signed server)",
      "  SERVERBEE_RELAY    the serverbee-relay of this device (when --relay is not given)",
      "  SERVERBEE_API_KEY  an API key instead of a session, with --server, for: "
        + keyCommands.joined(separator: ", "),
      "  SERVERBEE_SERVER   the API key's server (when --server is not given)",
      "  NO_COLOR           any value: no colour (colour is also off when stdout is no terminal)",
    ]
    lines += [
      "", "Start with 'serverbee demo'. 'serverbee help COMMAND' describes one command.",
      "Destructive commands ask first on a terminal; without one, pass --yes:",
      "  " + destructiveNames() + ".",
      "Exit codes: 0 success, 1 failure, 64 usage error.",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// The help of one command, with its sub-commands when it is also a group.
  static func command(_ declaration: CommandDeclaration) -> String {
    var lines = [
      "usage: serverbee \(declaration.usage)", "", declaration.summary + ".", "",
      declaration.discussion,
    ]
    let children = CommandCatalog.children(of: declaration.words)
    if !children.isEmpty {
      lines += ["", "sub-commands:"] + commandLines(children)
    }
    if !declaration.arguments.isEmpty {
      lines += ["", "arguments: " + declaration.arguments.map(\.label).joined(separator: " ")]
    }
    if !declaration.options.isEmpty {
      lines += ["", "options:"] + optionLines(declaration.options)
    }
    lines += ["", "global options:"] + optionLines(CommandCatalog.globalOptions)
    lines += ["", "examples:"] + declaration.examples.map { "  " + $0 }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The help of a group that is no command itself (`account`, `account 2fa`): its commands.
  static func group(_ words: [String]) -> String {
    let name = words.joined(separator: " ")
    var lines = ["usage: serverbee \(name) COMMAND [OPTIONS]", "", "commands:"]
    lines += commandLines(CommandCatalog.children(of: words))
    lines += ["", "'serverbee help \(name) COMMAND' describes one of them."]
    return lines.joined(separator: "\n") + "\n"
  }

  /// `serverbee help [COMMAND…]`: the help of those words, or the global help.
  /// - Throws: ``CommandLineError`` with `.usage` for words that name no command.
  static func run(_ context: CommandContext) async throws {
    context.console.write(try text(for: context.arguments.positionals))
  }

  /// The help `serverbee help` prints for `words`.
  /// - Throws: ``CommandLineError`` with `.usage` for words that name no command.
  static func text(for words: [String]) throws -> String {
    if words.isEmpty { return global() }
    if let declaration = CommandCatalog.declaration(words) { return command(declaration) }
    guard CommandCatalog.isKnown(words) else {
      throw CommandLineError(
        .usage,
        "unknown command '\(words.joined(separator: " "))' (see 'serverbee --help')")
    }
    return group(words)
  }

  private static func destructiveNames() -> String {
    CommandCatalog.all.filter(\.isDestructive).map(\.fullName).joined(separator: ", ")
  }

  private static func commandLines(_ declarations: [CommandDeclaration]) -> [String] {
    let width = declarations.map(\.fullName.count).max() ?? 0
    return declarations.map { "  " + pad($0.fullName, width) + "  " + $0.summary }
  }

  private static func optionLines(_ options: [OptionSpec]) -> [String] {
    let width = options.map(\.label.count).max() ?? 0
    return options.map { "  " + pad($0.label, width) + "  " + $0.help }
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }
}
