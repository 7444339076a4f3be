import Foundation
import ServerBeeModels

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The entry point of the `serverbee` command line.
///
/// `Examples/serverbee/main.swift` hands it the arguments and exits with its answer:
///
/// ```swift
/// exit(await ServerBeeCommand.main(Array(CommandLine.arguments.dropFirst())))
/// ```
public enum ServerBeeCommand {
  /// Runs one command and returns the process exit code.
  ///
  /// Results go to stdout (JSON only, with `--json`); progress and errors go to stderr, errors
  /// as one line `serverbee: <reason>`.
  /// - Parameter arguments: The arguments after the program name.
  /// - Returns: 0 on success, 64 for usage errors, 1 for other failures.
  public static func main(_ arguments: [String]) async -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let parsed: ParsedArguments
    do {
      parsed = try ArgumentParser.parse(arguments)
    } catch {
      return report(error)
    }
    let environment = ProcessInfo.processInfo.environment
    let console = Console.process(json: parsed.json, environment: environment)
    if parsed.flags.contains("version") {
      console.line(CommandCatalog.version)
      return 0
    }
    guard !parsed.words.isEmpty else {
      // A bare `serverbee` shows the help; global options without a command are a usage error.
      guard parsed.wantsHelp || arguments.isEmpty else {
        return report(CommandLineError(.usage, "missing command (see 'serverbee --help')"))
      }
      console.write(HelpText.global())
      return 0
    }
    // The parser let a group (`account`) through only with --help.
    guard let declaration = CommandCatalog.declaration(parsed.words) else {
      console.write(HelpText.group(parsed.words))
      return 0
    }
    if parsed.wantsHelp {
      console.write(HelpText.command(declaration))
      return 0
    }
    let context = CommandContext(
      arguments: parsed, console: console,
      home: HomeDirectory.resolve(option: parsed.values["home"], environment: environment),
      environment: environment)
    do {
      try Confirmation.check(declaration, arguments: parsed, console: console)
      try await declaration.run(context)
      return 0
    } catch let error as CommandLineError
      where error.code == .notSignedIn
      && environment[APICredential.environmentVariable].map({ !$0.isEmpty }) == true
    {
      // $SERVERBEE_API_KEY is set, but this command cannot use it: say why, not just "log in".
      return report(
        declaration.apiKeyRefusal.map { CommandLineError(.notSignedIn, $0) } ?? error)
    } catch {
      return report(error)
    }
  }

  private static func report(_ error: any Error) -> Int32 {
    StandardStream.err("serverbee: \(ErrorLine.text(for: error))\n")
    return ErrorLine.exitCode(for: error)
  }
}
