import ServerBeeRoutes

/// Every command of `serverbee`, each declared once (``CommandDeclaration``), area by area in
/// `CommandCatalog+Area.swift`; parsing, help, confirmations and the coverage table read
/// ``all``.
enum CommandCatalog {
  /// What `serverbee --version` prints.
  static let version = "serverbee 0.2 (ServerBeeKit; ServerBee mobile API v1 + v2)"

  /// Options every command accepts.
  static let globalOptions: [OptionSpec] = [
    OptionSpec(
      name: "home", valueName: "DIR",
      help: "state directory (default $SERVERBEE_HOME, else ~/.serverbee)"),
    OptionSpec(name: "server", valueName: "URL", help: "the ServerBee server URL"),
    OptionSpec(name: "json", valueName: nil, help: "machine-readable JSON on stdout"),
    OptionSpec(name: "help", valueName: nil, help: "show help"),
    OptionSpec(name: "version", valueName: nil, help: "show the version"),
  ]

  /// The groups whose sub-command may follow their first argument, the server
  /// (`traceroute SERVER history` is `traceroute history SERVER`).
  static let subjectFirstGroups: Set<[String]> = [
    ["traceroute"], ["ip-quality"], ["monitors"], ["docker"],
  ]

  /// Every command, in the order the help lists them.
  static let all: [CommandDeclaration] =
    signIn + fleet + screens + insights + networkProbes + traceroute + ipQuality
    + serviceMonitors + docker + agents + account
    + administration + incidents
    + pingTasks
    + serverMachinery
    + security + firewall + notifications + legacyPush + session

  /// What any command that opens the stored session may send besides its own routes: the
  /// token refresh, queued sign-outs (`revoke`), and the sweep of sessions an interrupted
  /// sign-in left behind (`devices`, then `DELETE` of each).
  static let sessionHousekeeping: [AnyAPIRoute] = [
    RouteCatalogue.Auth.refresh.erased, RouteCatalogue.Auth.revoke.erased,
    RouteCatalogue.Auth.devices.erased, RouteCatalogue.Auth.revokeDevice.erased,
  ]

  /// The command with exactly these words.
  static func declaration(_ words: [String]) -> CommandDeclaration? {
    all.first { $0.words == words }
  }

  /// The commands below `words` (longer, starting with them), in catalogue order.
  static func children(of words: [String]) -> [CommandDeclaration] {
    all.filter { $0.words.count > words.count && Array($0.words.prefix(words.count)) == words }
  }

  /// Whether some command starts with `words` (a command or a group).
  static func isKnown(_ words: [String]) -> Bool {
    all.contains { Array($0.words.prefix(words.count)) == words }
  }
}
