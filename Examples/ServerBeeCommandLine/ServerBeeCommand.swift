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
    let console = Console.process(json: parsed.json)
    guard let name = parsed.command, let spec = CommandCatalog.command(named: name) else {
      // A bare `serverbee` shows the help; global options without a command are a usage error.
      guard parsed.wantsHelp || arguments.isEmpty else {
        return report(CommandLineError(.usage, "missing command (see 'serverbee --help')"))
      }
      console.write(HelpText.global())
      return 0
    }
    if parsed.wantsHelp {
      console.write(HelpText.command(spec))
      return 0
    }
    let context = CommandContext(
      arguments: parsed, console: console,
      home: HomeDirectory.resolve(
        option: parsed.values["home"], environment: ProcessInfo.processInfo.environment))
    do {
      try await run(name, context)
      return 0
    } catch {
      return report(error)
    }
  }

  static func run(_ name: String, _ context: CommandContext) async throws {
    switch name {
    case "demo": try await DemoCommand.run(context)
    case "login": try await SignInCommands.login(context)
    case "pair": try await SignInCommands.pair(context)
    case "servers": try await DataCommands.servers(context)
    case "watch": try await WatchCommand.run(context)
    case "alerts": try await DataCommands.alerts(context)
    case "devices": try await DataCommands.devices(context)
    case "tasks": try await TaskCommands.run(context)
    case "security": try await SecurityCommands.run(context)
    case "open": try await OpenCommand.run(context)
    case "logout": try await SessionCommands.logout(context)
    case "pair-code": try await PairCodeCommand.run(context)
    case "recover": try await RecoverCommand.run(context)
    case "status": try await SessionCommands.status(context)
    case "notifications": try await NotificationCommands.run(context)
    case "push": try await PushCommands.run(context)
    case "account": try await AccountCommands.account(context)
    case "audit": try await AccountCommands.audit(context)
    case "users": try await UserCommands.run(context)
    case "channels": try await ChannelCommands.run(context)
    default: throw CommandLineError(.usage, "unknown command '\(name)'")
    }
  }

  private static func report(_ error: any Error) -> Int32 {
    StandardStream.err("serverbee: \(ErrorLine.text(for: error))\n")
    return ErrorLine.exitCode(for: error)
  }
}
