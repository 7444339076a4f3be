import ServerBeeModels

/// Splits `serverbee` arguments: global options anywhere, then one subcommand, its options and
/// its positional arguments.
///
/// Options are `--name value`, `--name=value` or a bare `--flag`; `-h` is `--help`; `--` ends the
/// options. Anything unknown is a usage error naming it.
enum ArgumentParser {
  /// Parses the arguments after the program name.
  /// - Parameter arguments: The raw arguments.
  /// - Returns: The parsed arguments.
  /// - Throws: ``CommandLineError`` with `.usage`.
  static func parse(_ arguments: [String]) throws -> ParsedArguments {
    var parsed = ParsedArguments()
    var spec: CommandSpec?
    var remaining = arguments[...]
    var optionsEnded = false
    while let argument = remaining.popFirst() {
      if !optionsEnded && argument == "--" {
        optionsEnded = true
      } else if !optionsEnded && (argument == "-h" || argument == "--help") {
        parsed.flags.insert("help")
      } else if !optionsEnded && argument.hasPrefix("--") {
        try parseOption(argument, spec: spec, remaining: &remaining, into: &parsed)
      } else if !optionsEnded && argument.hasPrefix("-") && argument.count > 1 {
        throw CommandLineError(.usage, "unknown option '\(argument)'")
      } else if parsed.command == nil {
        guard let found = CommandCatalog.command(named: argument) else {
          throw CommandLineError(
            .usage, "unknown command '\(argument)' (see 'serverbee --help')")
        }
        parsed.command = found.name
        spec = found
      } else {
        parsed.positionals.append(argument)
      }
    }
    if let spec, !parsed.wantsHelp {
      try checkPositionals(parsed.positionals, spec: spec)
    } else if spec == nil, !parsed.positionals.isEmpty {
      throw CommandLineError(.usage, "unexpected argument '\(parsed.positionals[0])'")
    }
    return parsed
  }

  private static func parseOption(
    _ argument: String, spec: CommandSpec?, remaining: inout ArraySlice<String>,
    into parsed: inout ParsedArguments
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
    let known =
      spec?.option(named: name) ?? CommandCatalog.globalOptions.first { $0.name == name }
    guard let option = known else {
      let scope = spec.map { " for '\($0.name)'" } ?? ""
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

  private static func checkPositionals(_ positionals: [String], spec: CommandSpec) throws {
    if positionals.count > spec.positionals.upperBound {
      let extra = positionals[spec.positionals.upperBound]
      throw CommandLineError(.usage, "unexpected argument '\(extra)' for '\(spec.name)'")
    }
    if positionals.count < spec.positionals.lowerBound {
      throw CommandLineError(.usage, "missing argument: usage: serverbee \(spec.usage)")
    }
  }
}
