import Foundation
import ServerBeeAPI
import ServerBeeModels

/// `serverbee ip-quality [SERVER]`, `ip-quality SERVER recheck`, `ip-quality services …` and
/// `ip-quality settings …` (Protocol/AppRoutes.md §9): reading is for anyone signed in;
/// rechecks and changes are for admins.
enum IPQualityCommands {
  private static let forbidden = "only an admin may recheck IP quality or change its settings"

  /// `ip-quality [SERVER]`: one server's report and services, or every server's summary.
  static func show(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    guard let named = context.arguments.positionals.first else {
      let all = try await APIRequest.run("Loading IP quality", console: console) {
        try await api.ipQualityOverview()
      }
      if console.json {
        console.json(try WireJSON.encode(all))
        return
      }
      let names = await APIRequest.serverNames(api)
      var table = TextTable(columns: [
        .left("SERVER"), .left("IP"), .left("COUNTRY"), .left("TYPE"), .left("RISK"),
        .right("UNLOCKED"), .left("CHECKED"),
      ])
      for server in all {
        let report = server.ipQuality
        let unlocked = server.unlockResults.filter { $0.status == .unlocked }.count
        table.append([
          Formatting.excerpt(names[server.serverID] ?? server.serverID), report?.ip ?? "-",
          report?.country ?? "-", report?.ipType ?? "-",
          report.map { "\($0.riskLevel) (\($0.riskScore.map(String.init) ?? "-"))" } ?? "-",
          "\(unlocked)/\(server.unlockResults.count)",
          report.map { Formatting.time($0.checkedAt) } ?? "never",
        ])
      }
      console.line(table.render())
      return
    }
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(named)
    let data = try await APIRequest.run("Loading IP quality", console: console) {
      try await api.ipQuality(serverID: server.id)
    }
    if console.json {
      console.json(try WireJSON.encode(data))
      return
    }
    detail(data, name: server.name, console)
  }

  /// `ip-quality SERVER recheck`: asks the agent, then reads 6 times 2 s apart as the app does.
  static func recheck(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(context.arguments.argument(0))
    let name = TerminalText.safe(server.name)
    let fresh: ServerIPQuality?
    do {
      fresh = try await Spinner.run("Rechecking the IP of \(name)", console: console) {
        try await api.recheckIPQuality(serverID: server.id)
      }
    } catch let error as ServerBeeAPIError {
      switch error.code {
      case .agentOffline:
        throw CommandLineError(
          .refused, "the agent of \(name) is not connected, so it cannot check its IP",
          underlying: error)
      case .conflict:
        throw CommandLineError(
          .refused, "the agent of \(name) has IP quality switched off in its config",
          underlying: error)
      case .forbidden: throw CommandLineError(.notPermitted, forbidden, underlying: error)
      default: throw error
      }
    }
    guard let fresh else {
      throw CommandLineError(
        .unexpectedAnswer,
        "no new result from \(name) after 6 checks 2 s apart; it may still come "
          + "('serverbee ip-quality \(name)')")
    }
    if console.json {
      console.json(try WireJSON.encode(fresh))
      return
    }
    detail(fresh, name: server.name, console)
  }

  /// `ip-quality services`.
  static func services(_ context: CommandContext) async throws {
    let api = try await APICredential.client(context)
    let services = try await APIRequest.run("Loading the services", console: context.console) {
      try await api.unlockServices()
    }
    if context.console.json {
      context.console.json(try WireJSON.encode(services))
      return
    }
    var table = TextTable(columns: [
      .left("ID"), .left("NAME"), .left("CATEGORY"), .right("POPULARITY"), .left("KIND"),
      .left("STATE"),
    ])
    for service in services {
      table.append([
        service.id, Formatting.excerpt(service.name), service.category, "\(service.popularity)",
        service.isBuiltin ? "built-in" : "custom", service.enabled ? "enabled" : "disabled",
      ])
    }
    context.console.line(table.render())
  }

  /// `ip-quality services enable ID`.
  static func enable(_ context: CommandContext) async throws { try await set(context, true) }

  /// `ip-quality services disable ID`.
  static func disable(_ context: CommandContext) async throws { try await set(context, false) }

  private static func set(_ context: CommandContext, _ enabled: Bool) async throws {
    let id = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    let service = try await APIRequest.run(
      enabled ? "Enabling the service" : "Disabling the service", console: context.console,
      notFound: "there is no service '\(id)' (see 'serverbee ip-quality services')",
      forbidden: forbidden
    ) { try await api.setUnlockService(id: id, enabled: enabled) }
    if context.console.json {
      context.console.json(try WireJSON.encode(service))
    } else {
      context.console.line(
        TerminalText.safe("\(service.name) is \(service.enabled ? "enabled" : "disabled")."))
    }
  }

  /// `ip-quality services delete ID`.
  static func delete(_ context: CommandContext) async throws {
    let id = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    do {
      try await APIRequest.run(
        "Deleting the service", console: context.console,
        notFound: "there is no service '\(id)' (see 'serverbee ip-quality services')",
        forbidden: forbidden
      ) { try await api.deleteUnlockService(id: id) }
    } catch let error as ServerBeeAPIError where error.code == .badRequest {
      throw CommandLineError(
        .refused,
        "'\(TerminalText.safe(id))' is a built-in service: disable it instead "
          + "('serverbee ip-quality services disable \(TerminalText.safe(id))')",
        underlying: error)
    }
    if context.console.json {
      context.console.json(try WireJSON.encode(["deleted": id]))
    } else {
      context.console.line(TerminalText.safe("Deleted service \(id)."))
    }
  }

  /// `ip-quality settings`.
  static func settings(_ context: CommandContext) async throws {
    let api = try await APICredential.client(context)
    let settings = try await APIRequest.run("Loading the settings", console: context.console) {
      try await api.ipQualitySettings()
    }
    print(settings, context.console)
  }

  /// `ip-quality settings set --hours N`.
  static func setSettings(_ context: CommandContext) async throws {
    guard let text = context.arguments.values["hours"] else {
      throw CommandLineError(.usage, "'ip-quality settings set' needs --hours N (1 to 168)")
    }
    guard let hours = Int(text), (1...168).contains(hours) else {
      throw CommandLineError(
        .usage, "--hours takes a whole number from 1 to 168, got '\(TerminalText.safe(text))'")
    }
    let api = try await APICredential.client(context)
    let settings = try await APIRequest.run(
      "Saving the settings", console: context.console, forbidden: forbidden
    ) { try await api.updateIPQualitySettings(IPQualitySettings(checkIntervalHours: hours)) }
    print(settings, context.console)
  }

  private static func print(_ settings: IPQualitySettings, _ console: Console) {
    if console.json, let data = try? WireJSON.encode(settings) {
      console.json(data)
    } else {
      console.line("IPs are checked every \(settings.checkIntervalHours) hour(s).")
    }
  }

  private static func detail(_ data: ServerIPQuality, name: String, _ console: Console) {
    guard let report = data.ipQuality else {
      console.line(TerminalText.safe("\(name): not checked yet."))
      return
    }
    let place = [report.city, report.region, report.country].compactMap { $0 }
    console.line(
      TerminalText.safe(
        "\(name): \(report.ip) \(report.asn ?? "") \(report.asOrg ?? ""), "
          + "\(place.joined(separator: ", ")), \(report.ipType)"))
    var flags: [String] = []
    if report.isProxy { flags.append("proxy") }
    if report.isVPN { flags.append("VPN") }
    if report.isHosting { flags.append("hosting") }
    if report.isTor { flags.append("Tor") }
    if report.isAbuser { flags.append("abuser") }
    if report.isMobile { flags.append("mobile") }
    console.line(
      TerminalText.safe(
        "risk \(report.riskLevel) (\(report.riskScore.map(String.init) ?? "-")), flags: "
          + (flags.isEmpty ? "none" : flags.joined(separator: ", "))
          + ", checked \(Formatting.time(report.checkedAt))"))
    var table = TextTable(columns: [
      .left("SERVICE"), .left("STATUS"), .left("REGION"), .right("LATENCY"),
    ])
    for result in data.unlockResults {
      table.append([
        result.serviceID, result.status.rawValue, result.region ?? "-",
        result.latencyMs.map { "\($0) ms" } ?? "-",
      ])
    }
    console.line(table.render())
  }
}
