import ServerBeeModels

/// Splits `serverbee` arguments by the declarations in ``CommandCatalog``: global options
/// anywhere, the command's words (`account 2fa enable`), its options and its positional
/// arguments.
///
/// Options are `--name value`, `--name=value` or a bare `--flag`; `-h` is `--help`, `-f` is
/// `--follow` (for the commands that declare it); `--` ends the
/// options. Anything unknown is a usage error naming it.
enum ArgumentParser {
  /// Parses the arguments after the program name.
  /// - Parameter arguments: The raw arguments.
  /// - Returns: The parsed arguments.
  /// - Throws: ``CommandLineError`` with `.usage`.
  static func parse(_ arguments: [String]) throws -> ParsedArguments {
    var parsed = ParsedArguments()
    var remaining = arguments[...]
    var optionsEnded = false
    while let argument = remaining.popFirst() {
      if !optionsEnded && argument == "--" {
        optionsEnded = true
      } else if !optionsEnded && (argument == "-h" || argument == "--help") {
        parsed.flags.insert("help")
      } else if !optionsEnded && argument.hasPrefix("--") {
        try parseOption(argument, remaining: &remaining, into: &parsed)
      } else if !optionsEnded && argument == "-f" {
        // `docker SERVER logs CONTAINER -f`, as docker and tail write it.
        parsed.flags.insert("follow")
      } else if !optionsEnded && argument.hasPrefix("-") && argument.count > 1 {
        throw CommandLineError(.usage, "unknown option '\(argument)'")
      } else if parsed.positionals.isEmpty && CommandCatalog.isKnown(parsed.words + [argument]) {
        parsed.words.append(argument)
      } else if parsed.positionals.count == 1
        && CommandCatalog.subjectFirstGroups.contains(parsed.words)
        && CommandCatalog.isKnown(parsed.words + [argument])
      {
        // `traceroute SERVER history`: the sub-command after the group's subject.
        parsed.words.append(argument)
      } else if parsed.words.isEmpty {
        throw CommandLineError(.usage, "unknown command '\(argument)' (see 'serverbee --help')")
      } else {
        parsed.positionals.append(argument)
      }
    }
    guard !parsed.words.isEmpty else { return parsed }
    guard let declaration = CommandCatalog.declaration(parsed.words) else {
      return try checkGroup(parsed)
    }
    if parsed.values["api-key"] != nil, let refusal = declaration.apiKeyRefusal {
      throw CommandLineError(.usage, refusal)
    }
    for name in parsed.values.keys.sorted() + parsed.flags.sorted()
    where declaration.option(named: name) == nil {
      throw CommandLineError(.usage, "unknown option '--\(name)' for '\(declaration.fullName)'")
    }
    if !parsed.wantsHelp {
      try checkPositionals(parsed.positionals, declaration)
    }
    return parsed
  }

  /// The words name a group (`account`), not a command: only its help may be asked for.
  private static func checkGroup(_ parsed: ParsedArguments) throws -> ParsedArguments {
    let group = parsed.words.joined(separator: " ")
    if let first = parsed.positionals.first {
      throw CommandLineError(
        .usage, "unknown command '\(group) \(first)' (see 'serverbee help \(group)')")
    }
    guard parsed.wantsHelp else {
      let next = CommandCatalog.children(of: parsed.words).map { $0.words[parsed.words.count] }
      let names = next.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
      throw CommandLineError(
        .usage,
        "'\(group)' needs one of: \(names.joined(separator: ", ")) (see 'serverbee help \(group)')"
      )
    }
    return parsed
  }

  private static func parseOption(
    _ argument: String, remaining: inout ArraySlice<String>, into parsed: inout ParsedArguments
  ) throws {
    let body = argument.dropFirst(2)
    let name: String
    var inlineValue: String?
    if let equals = body.firstIndex(of: "=") {
      name = String(body[..<equals])
      inlineValue = String(body[body.index(after: equals)...])
    } else {
      name = String(body)
    }
    guard let option = candidateOption(named: name, under: parsed.words) else {
      let scope = parsed.command.map { " for '\($0)'" } ?? ""
      throw CommandLineError(.usage, "unknown option '--\(name)'\(scope)")
    }
    guard option.takesValue else {
      if inlineValue != nil {
        throw CommandLineError(.usage, "option '--\(name)' takes no value")
      }
      parsed.flags.insert(name)
      return
    }
    if let inlineValue {
      parsed.values[name] = inlineValue
    } else if let next = remaining.popFirst(), !next.hasPrefix("--") || next == "--" {
      parsed.values[name] = next
    } else {
      throw CommandLineError(
        .usage, "option '--\(name)' needs a value (\(option.valueName ?? "VALUE"))")
    }
  }

  /// The option as the command named so far, or one of the commands below it, declares it (the
  /// words may still grow: `alerts --limit 5` before `show`); ``parse(_:)`` checks it against
  /// the final command.
  /// A command's own option wins over a global one of the same name once the command is named
  /// (`servers upgrade SERVER --version V`; `serverbee --version` stays the global flag).
  private static func candidateOption(named name: String, under words: [String]) -> OptionSpec? {
    if let own = CommandCatalog.declaration(words)?.options.first(where: { $0.name == name }) {
      return own
    }
    if let global = CommandCatalog.globalOptions.first(where: { $0.name == name }) {
      return global
    }
    // Known to every command while the words are read: ``parse(_:)`` then says, in the
    // final command's words, why one that cannot use a key refuses it.
    if name == OptionSpec.apiKey.name { return .apiKey }
    let own = CommandCatalog.declaration(words).map { [$0] } ?? []
    let candidates = words.isEmpty ? [] : own + CommandCatalog.children(of: words)
    for declaration in candidates {
      if let option = declaration.options.first(where: { $0.name == name }) { return option }
    }
    return nil
  }

  private static func checkPositionals(
    _ positionals: [String], _ declaration: CommandDeclaration
  ) throws {
    let range = declaration.positionalRange
    if positionals.count > range.upperBound {
      let extra = positionals[range.upperBound]
      guard range.upperBound > 0 || CommandCatalog.children(of: declaration.words).isEmpty else {
        throw CommandLineError(
          .usage,
          "unknown command '\(declaration.fullName) \(extra)' (see 'serverbee help "
            + "\(declaration.fullName)')")
      }
      throw CommandLineError(
        .usage, "unexpected argument '\(extra)' for '\(declaration.fullName)'")
    }
    if positionals.count < range.lowerBound {
      throw CommandLineError(.usage, "missing argument: usage: serverbee \(declaration.usage)")
    }
  }
}
