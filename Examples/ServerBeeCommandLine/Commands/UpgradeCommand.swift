import Foundation
import RealtimeStream
import ServerBeeAPI
import ServerBeeModels

/// `serverbee servers upgrade SERVER [--version V] [--watch] [--timeout S]`
/// (Protocol/Agents.md §11): starts upgrading a server's agent, to the latest release unless
/// `--version` names one, and with `--watch` follows the live stream until the upgrade's result
/// or the deadline.
enum UpgradeCommand {
  /// How long `--watch` waits for the result by default, in seconds.
  static let defaultTimeout: Double = 120

  /// Runs the command.
  static func run(_ context: CommandContext) async throws {
    let console = context.console
    let arguments = context.arguments
    let watch = arguments.flags.contains("watch")
    let timeout = try arguments.seconds("timeout") ?? defaultTimeout
    let api = try await APICredential.client(context)
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(arguments.argument(0))
    let version = try await target(arguments.values["version"], api, console)
    guard watch else {
      try await start(server, version, api, console)
      if console.json {
        console.json(
          try WireJSON.encode(["server_id": server.id, "target_version": version]))
      } else {
        console.line(
          TerminalText.safe(
            "Started upgrading the agent of \(server.name) to \(version); its progress comes "
              + "on the live stream ('serverbee servers upgrade \(server.name) --watch' "
              + "follows it)."))
      }
      return
    }
    try await FleetFeed.with(context) { feed, _ in
      _ = try await Spinner.run("Connecting to the live stream", console: console) {
        try await feed.firstSync()
      }
      // Subscribed before the upgrade starts, so its first frame is not missed.
      let events = await feed.stream.events()
      try await start(server, version, api, console)
      if !console.json {
        console.line(TerminalText.safe("Upgrading the agent of \(server.name) to \(version)…"))
      }
      let result = try await follow(events, server: server, timeout: timeout, console: console)
      try report(result, server, console)
    }
  }

  /// The version asked for, or the latest release's.
  private static func target(_ given: String?, _ api: ServerBeeAPIClient, _ console: Console)
    async throws -> String
  {
    if let given {
      guard !given.isEmpty else { throw CommandLineError(.usage, "--version needs a version") }
      return given
    }
    let latest = try await APIRequest.run("Asking for the latest agent", console: console) {
      try await api.latestAgentVersion()
    }
    guard let version = latest.version else {
      throw CommandLineError(
        .unexpectedAnswer,
        TerminalText.safe(
          "the server does not know the latest agent (\(latest.error ?? "no reason given")); "
            + "name one with --version"))
    }
    return version
  }

  /// Posts the upgrade; its refusals in the command's words.
  private static func start(
    _ server: ServerResponse, _ version: String, _ api: ServerBeeAPIClient, _ console: Console
  ) async throws {
    let name = TerminalText.safe(server.name)
    do {
      try await APIRequest.run("Starting the upgrade", console: console) {
        try await api.upgradeAgent(serverID: server.id, version: version)
      }
    } catch let error as ServerBeeAPIError {
      guard let refusal = error.apiFailure?.upgradeRefusal else {
        if error.code == .forbidden {
          throw CommandLineError(
            .notPermitted, "only an admin may upgrade an agent", underlying: error)
        }
        throw error
      }
      let safeVersion = TerminalText.safe(version)
      let sentence: (ServerBeeError<CommandLineDomain>.Code, String) =
        switch refusal {
        case .serverNotFound:
          (.notFound, "no server '\(TerminalText.safe(server.id))' (see 'serverbee servers')")
        case .capabilityDisabled:
          (.notPermitted, "upgrades are switched off for \(name) (its upgrade capability)")
        case .invalidVersion:
          (.usage, "'\(safeVersion)' is not a version the server accepts (SemVer, like 1.5.0)")
        case .agentNotConnected:
          (.unexpectedAnswer, "the agent of \(name) is not connected, so it cannot upgrade")
        case .alreadyRunning(_, let running):
          (
            .unexpectedAnswer,
            "an upgrade of \(name) is running already"
              + (running.map { " (to \(TerminalText.safe($0)))" } ?? "")
              + "; wait for its result"
          )
        }
      throw CommandLineError(sentence.0, sentence.1, underlying: error)
    }
  }

  /// Prints each stage of the server's upgrade until its result, which it returns.
  /// - Throws: ``CommandLineError`` `.streamFailed` when no result comes within `timeout`
  ///   seconds, or the stream ends first.
  private static func follow(
    _ events: AsyncStream<MetricsStreamClient.Event>, server: ServerResponse, timeout: Double,
    console: Console
  ) async throws -> UpgradeResult {
    let name = TerminalText.safe(server.name)
    return try await withThrowingTaskGroup(of: UpgradeResult?.self) { group in
      group.addTask {
        for await event in events {
          guard case .message(let message) = event else { continue }
          switch message {
          case .upgradeProgress(let progress) where progress.serverID == server.id:
            try show(progress, console)
          case .upgradeResult(let result) where result.serverID == server.id:
            if console.json { console.json(try WireJSON.encode(result)) }
            return result
          default: continue
          }
        }
        return nil
      }
      group.addTask {
        try await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
        return nil
      }
      defer { group.cancelAll() }
      if let first = try await group.next(), let result = first { return result }
      throw CommandLineError(
        .streamFailed,
        "no result for the upgrade of \(name) within \(Int(timeout.rounded(.up))) s; it may "
          + "still be running ('serverbee watch' shows the servers)")
    }
  }

  /// One progress line: `[2/5] verifying`.
  private static func show(_ progress: UpgradeProgress, _ console: Console) throws {
    if console.json {
      console.json(try WireJSON.encode(progress))
      return
    }
    let stages: [UpgradeStage] = [.downloading, .verifying, .preFlight, .installing, .restarting]
    let step = stages.firstIndex(of: progress.stage).map { "\($0 + 1)/\(stages.count)" } ?? "?"
    console.line(TerminalText.safe("  [\(step)] \(progress.stage.rawValue)"))
  }

  /// The result as a line, or as the command's failure.
  private static func report(_ result: UpgradeResult, _ server: ServerResponse, _ console: Console)
    throws
  {
    let name = TerminalText.safe(server.name)
    let version = TerminalText.safe(result.targetVersion)
    let stage = result.stage.map { " at \(TerminalText.safe($0.rawValue))" } ?? ""
    let reason = result.error.map { ": \(TerminalText.safe($0))" } ?? ""
    switch result.status {
    case .succeeded:
      if !console.json { console.line("Upgraded the agent of \(name) to \(version).") }
    case .timeout:
      throw CommandLineError(
        .unexpectedAnswer, "the upgrade of \(name) to \(version) timed out\(stage)\(reason)")
    case .failed:
      throw CommandLineError(
        .unexpectedAnswer, "the upgrade of \(name) to \(version) failed\(stage)\(reason)")
    default:
      throw CommandLineError(
        .unexpectedAnswer,
        "the upgrade of \(name) to \(version) ended \(TerminalText.safe(result.status.rawValue))"
          + "\(stage)\(reason)")
    }
  }
}
