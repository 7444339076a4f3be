import ServerBeeModels
import ServerBeeRoutes
import Testing

@testable import ServerBeeCommandLine

/// The command declarations as a table: names, routes and destructive commands.
@Suite struct CommandCatalogTests {
  @Test func everyDeclaredRouteKeyIsInTheRouteCatalogue() {
    let known = Set(RouteCatalogue.all.map(\.key) + RouteCatalogue.sockets.map(\.key))
    for declaration in CommandCatalog.all {
      for key in declaration.allRouteKeys {
        #expect(known.contains(key), "\(declaration.fullName): \(key)")
      }
    }
    #expect(CommandCatalog.sessionHousekeeping.allSatisfy { known.contains($0.key) })
  }

  @Test func fullNamesAreUniqueAndEveryCommandThatTalksToAServerNamesItsRoutes() {
    let names = CommandCatalog.all.map(\.fullName)
    #expect(Set(names).count == names.count)
    // Only these work without sending a ServerBee route of their own.
    let local = CommandCatalog.all.filter(\.routeKeys.isEmpty).map(\.fullName)
    #expect(local == ["notifications privacy", "push decrypt", "status", "help"])
    let live = CommandCatalog.all.filter { $0.routeKeys.contains("GET /api/ws/servers") }
    #expect(
      live.map(\.fullName) == ["demo", "servers", "watch", "server", "insights", "servers upgrade"])
    #expect(
      CommandCatalog.declaration(["alerts", "rules", "disable"])?.routeKeys
        == ["PUT /api/alert-rules/{}"])
    #expect(
      CommandCatalog.declaration(["login"])?.routeKeys.first == "POST /api/mobile/auth/login")
  }

  @Test func exactlyTheDestructiveCommandsAskAndTakeYes() {
    let destructive = CommandCatalog.all.filter(\.isDestructive).map(\.fullName)
    #expect(
      destructive == [
        "groups delete", "alerts rules disable", "devices revoke", "probes targets delete",
        "traceroute delete", "traceroute clear", "ip-quality services delete", "docker remove",
        "servers delete",
        "agent revoke", "account 2fa disable", "account api-keys delete", "users delete",
        "channels disable", "tasks delete", "maintenance delete",
        "incidents delete", "ping-tasks delete", "security delete", "firewall unblock",
      ])
    // `notifications enable` asks something else first: whether the privacy notice was read.
    for declaration in CommandCatalog.all {
      let takesYes = declaration.options.contains { $0.name == "yes" }
      let asks = declaration.isDestructive || declaration.fullName == "notifications enable"
      #expect(takesYes == asks, "\(declaration.fullName)")
    }
  }
}

/// API-key mode, derived from the credentials of each command's routes.
@Suite struct APIKeyModeTests {
  @Test func theCommandsThatTakeAKeyAreExactlyThoseWhoseRoutesAllAcceptOne() {
    let keyCredentials: Set<RouteCredential> = [.member, .memberUngated, .admin, .none]
    for declaration in CommandCatalog.all {
      let credentials = declaration.routes.map(\.credential) + declaration.sockets.map(\.credential)
      let signsIn = declaration.routes.contains {
        $0.credential == .none && RouteCatalogue.Auth.all.contains($0)
      }
      let expected =
        !credentials.isEmpty && !signsIn && !declaration.usesInstallationKeys
        && credentials.allSatisfy(keyCredentials.contains)
      #expect((declaration.apiKeyUse == .accepted) == expected, "\(declaration.fullName)")
      // The option follows the rule both ways, and a refusal is one sentence.
      #expect(declaration.options.contains(.apiKey) == expected, "\(declaration.fullName)")
      #expect((declaration.apiKeyRefusal == nil) == expected, "\(declaration.fullName)")
      #expect(!(declaration.apiKeyRefusal ?? "").contains("\n"))
    }
  }

  @Test(arguments: [
    ("security events", APIKeyUse.accepted),
    ("security delete", .accepted),
    ("devices", .accepted),
    ("admin rate-limits reset", .accepted),
    ("servers records", .accepted),
    ("alerts rules states", .accepted),
    ("notifications", .needsMobileSession("GET /api/mobile/push/settings")),
    ("push register-legacy", .needsMobileSession("POST /api/mobile/push/register")),
    ("login", .managesSession),
    ("logout", .managesSession),
    ("recover", .managesSession),
    ("status", .local),
    ("push decrypt", .local),
    // Their routes take a key, but they open this installation's pushes with its content key.
    ("push listen", .needsInstallation),
    ("open", .needsInstallation),
  ])
  func eachCommandIsClassifiedFromItsRoutes(name: String, use: APIKeyUse) throws {
    let words = name.split(separator: " ").map(String.init)
    let declaration = try #require(CommandCatalog.declaration(words))
    #expect(declaration.apiKeyUse == use)
  }

  @Test func aCommandThatCannotUseAKeyRefusesItWithTheReasonAsAUsageError() throws {
    do {
      _ = try ArgumentParser.parse(["push", "register-legacy", "--api-key", "k", "0f0f"])
      Issue.record("no refusal")
    } catch let error as CommandLineError {
      #expect(error.code == .usage)
      #expect(
        error.message
          == "'push register-legacy' needs a mobile session: an API key cannot call "
          + "POST /api/mobile/push/register; sign in with 'serverbee login' or 'serverbee pair'")
    }
    let parsed = try ArgumentParser.parse(["security", "events", "--api-key", "k"])
    #expect(parsed.values["api-key"] == "k")
  }
}

/// The confirmation of destructive commands, with the answer scripted.
@Suite struct ConfirmationTests {
  private func declaration(_ words: String) throws -> CommandDeclaration {
    try #require(CommandCatalog.declaration(words.split(separator: " ").map(String.init)))
  }

  private func console(terminal: Bool) -> Console {
    Console(
      stdoutIsTerminal: terminal, stderrIsTerminal: terminal, stdinIsTerminal: terminal,
      json: false)
  }

  @Test func withoutATerminalItRefusesUnlessYesIsGiven() throws {
    let delete = try declaration("users delete")
    var asked = false
    let arguments = try ArgumentParser.parse(["users", "delete", "5f0c"])
    do {
      try Confirmation.check(delete, arguments: arguments, console: console(terminal: false)) {
        asked = true
        return "y"
      }
      Issue.record("no refusal")
    } catch let error as CommandLineError {
      #expect(error.code == .usage)
      #expect(error.message.hasSuffix("pass --yes to go ahead"))
    }
    #expect(!asked)
    let confirmed = try ArgumentParser.parse(["users", "delete", "5f0c", "--yes"])
    try Confirmation.check(delete, arguments: confirmed, console: console(terminal: false)) {
      asked = true
      return nil
    }
    #expect(!asked)
  }

  @Test(arguments: [("y", true), ("YES", true), (" yes ", true), ("n", false), ("", false)])
  func onATerminalOnlyYesGoesAhead(reply: String, proceeds: Bool) throws {
    let arguments = try ArgumentParser.parse(["channels", "disable", "c1"])
    let check = {
      try Confirmation.check(
        try declaration("channels disable"), arguments: arguments,
        console: console(terminal: true)
      ) { reply }
    }
    if proceeds {
      try check()
    } else {
      #expect(throws: CommandLineError.self) { try check() }
    }
  }

  @Test func aCommandThatDestroysNothingNeverAsks() throws {
    try Confirmation.check(
      try declaration("channels enable"),
      arguments: try ArgumentParser.parse(["channels", "enable", "c1"]),
      console: console(terminal: false)
    ) {
      Issue.record("asked")
      return nil
    }
  }
}
