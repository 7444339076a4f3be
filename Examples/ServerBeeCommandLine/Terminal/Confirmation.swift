import Foundation
import ServerBeeModels

/// The question a destructive command asks before it sends anything (`gh` asks the
/// same way): `y` or `yes` goes ahead, anything else changes nothing.
///
/// Without a terminal on stdin nobody can answer, so the command is refused as a usage error
/// unless `--yes` was given: a script says so once, on purpose.
enum Confirmation {
  /// Asks the declaration's question when it has one and `--yes` was not given.
  /// - Parameters:
  ///   - declaration: The command about to run.
  ///   - arguments: Its parsed arguments.
  ///   - console: Tells whether stdin is a terminal.
  ///   - answer: Reads the answer after the question was shown (stdin in the process).
  /// - Throws: ``CommandLineError`` `.usage` without a terminal and without `--yes`;
  ///   `.declined` when the answer is not yes.
  static func check(
    _ declaration: CommandDeclaration, arguments: ParsedArguments, console: Console,
    answer: () -> String? = { readLine(strippingNewline: true) }
  ) throws {
    guard let question = declaration.confirmation, !arguments.flags.contains("yes") else {
      return
    }
    guard console.stdinIsTerminal else {
      throw CommandLineError(
        .usage,
        "'\(declaration.fullName)' asks before it changes anything and there is no terminal "
          + "to ask on: pass --yes to go ahead")
    }
    StandardStream.err(TerminalText.safe(question(arguments.positionals)) + " [y/N] ")
    let reply = (answer() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    guard reply == "y" || reply == "yes" else {
      throw CommandLineError(
        .declined, "nothing was changed ('\(declaration.fullName)' not confirmed)")
    }
  }
}
