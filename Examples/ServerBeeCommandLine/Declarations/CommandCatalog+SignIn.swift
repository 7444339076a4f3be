import ServerBeeRoutes

extension CommandCatalog {
  /// The demo and the two ways to sign in.
  static let signIn: [CommandDeclaration] = [
    CommandDeclaration(
      "demo", summary: "run a local simulator, pair, stream metrics, pushes, log out",
      options: [OptionSpec(name: "duration", valueName: "S", help: "seconds of live metrics (16)")],
      discussion: """
        Starts an embedded ServerBee simulator and push relay on 127.0.0.1 with an admin, a \
        dozen servers and some alerts, pairs with its QR code through the SDK, streams live \
        metrics, enables notifications, receives a test push, an alert, a failed task run and a \
        security event through the relay (decrypted here, in English and Chinese), opens one \
        tap, lists alerts and devices, then logs out with revocation and shows the session is \
        gone. Needs no network; uses a temporary home unless --home is given.
        """,
      examples: ["serverbee demo", "serverbee demo --duration 5"],
      routes: [
        RouteCatalogue.Auth.pair.erased, RouteCatalogue.Auth.login.erased,
        RouteCatalogue.Auth.refresh.erased, RouteCatalogue.Servers.servers.erased,
        RouteCatalogue.Push.settings.erased, RouteCatalogue.Push.updateSettings.erased,
        RouteCatalogue.Push.encryptedRegister.erased, RouteCatalogue.Push.sendTest.erased,
        RouteCatalogue.Push.testStatus.erased, RouteCatalogue.Alerts.alertEvents.erased,
        RouteCatalogue.Alerts.alertEvent.erased, RouteCatalogue.Auth.devices.erased,
        RouteCatalogue.Auth.revoke.erased, RouteCatalogue.Push.unregister.erased,
      ],
      sockets: [RouteCatalogue.Live.fleetStream], run: DemoCommand.run),
    CommandDeclaration(
      "login", summary: "sign in with user name and password",
      options: [
        OptionSpec(name: "username", valueName: "U", help: "the user name"),
        OptionSpec(name: "password", valueName: "P", help: "the password (prompted when omitted)"),
        OptionSpec(name: "totp", valueName: "CODE", help: "the TOTP code, for 2FA accounts"),
      ],
      discussion: """
        Signs in to --server and keeps the session in the encrypted store. Missing values are \
        prompted for on a terminal (the password without echo); without a terminal they are \
        usage errors. One refresh right after confirms a deletion proof, so a later logout \
        works offline.
        """,
      examples: ["serverbee login --server https://monitor.example.com --username ada"],
      routes: signInRoutes(RouteCatalogue.Auth.login.erased), run: SignInCommands.login),
    CommandDeclaration(
      "pair", summary: "sign in with the QR payload from Settings → Mobile Devices",
      arguments: [.required("'QR-PAYLOAD-JSON'")],
      discussion: """
        Redeems the pairing code shown by the web app. With --server, a payload for another \
        server is refused.
        """,
      examples: [
        #"serverbee pair '{"type":"serverbee_pair","server_url":"https://monitor.example.com","code":"…"}'"#
      ],
      routes: signInRoutes(RouteCatalogue.Auth.pair.erased), run: SignInCommands.pair),
  ]

  /// A sign-in's own route, then the refresh that confirms a deletion proof and the sweep of
  /// sessions interrupted sign-ins left (`SignInCommands.finish`).
  private static func signInRoutes(_ route: AnyAPIRoute) -> [AnyAPIRoute] {
    [
      route, RouteCatalogue.Auth.refresh.erased, RouteCatalogue.Auth.devices.erased,
      RouteCatalogue.Auth.revokeDevice.erased,
    ]
  }

  /// Signing out, recovery, pairing another device, the local state, and `help`.
  static let session: [CommandDeclaration] = [
    CommandDeclaration(
      "logout", summary: "sign out and revoke the session (works offline)",
      options: [
        OptionSpec(
          name: "forget-pending", valueName: "ID",
          help: "drop one queued sign-out (see 'status') without telling its server")
      ],
      discussion: """
        Revokes the session on the server. When the server cannot be reached the local \
        credentials are cleared anyway and the revocation is queued; any later command \
        finishes it once the server is reachable.
        """,
      examples: ["serverbee logout", "serverbee logout --forget-pending 3c1f…"],
      routes: [
        RouteCatalogue.Auth.revoke.erased, RouteCatalogue.Auth.logout.erased,
        RouteCatalogue.Push.unregister.erased,
      ],
      run: SessionCommands.logout),
    CommandDeclaration(
      "pair-code", summary: "show a QR code that pairs another device as this account",
      discussion: """
        Asks the server for a pairing code (POST /api/mobile/pair) and draws its QR code, for \
        the iOS app or another serverbee ('serverbee pair'). The code works once, within 5 \
        minutes, and replaces any earlier code of this account. It is a credential: show it \
        only to the device you pair.
        """,
      examples: ["serverbee pair-code", "serverbee pair-code --json"],
      routes: [RouteCatalogue.Auth.createPairingCode.erased], run: PairCodeCommand.run),
    CommandDeclaration(
      "recover", summary: "recover a session the server rejected",
      options: [
        OptionSpec(
          name: "username", valueName: "U", help: "the user name (default: the stored one)"),
        OptionSpec(name: "password", valueName: "P", help: "the password (prompted when omitted)"),
        OptionSpec(name: "totp", valueName: "CODE", help: "the TOTP code, for 2FA accounts"),
        OptionSpec(
          name: "pair-code", valueName: "QR",
          help: "prove the account with a new pairing QR instead"),
        OptionSpec(name: "select", valueName: "ID", help: "the session to delete, when asked"),
      ],
      discussion: """
        When the server rejected this session, proves the account (its password, or a pairing \
        QR code generated by the same account) and asks the server to delete the original \
        session. If the server lists candidate sessions, they are shown; choose one on a \
        terminal or run again with --select ID. Afterwards sign in again.
        """,
      examples: [
        "serverbee recover --username ada",
        "serverbee recover --pair-code \"$QR\" --select 5F0C…",
      ],
      routes: [RouteCatalogue.Auth.recover.erased], run: RecoverCommand.run),
    CommandDeclaration(
      "status", summary: "server, account, session state, pending cleanups",
      discussion: """
        Shows what is stored in the home directory; needs no network (a queued sign-out is \
        finished when its server is reachable).
        """,
      examples: ["serverbee status", "serverbee status --json"], run: SessionCommands.status),
    CommandDeclaration(
      "help", summary: "describe a command: 'serverbee help account 2fa enable'",
      arguments: [.variadic("COMMAND")],
      discussion: """
        Prints the usage, options, description and examples of a command (the same as \
        'serverbee COMMAND --help'), or the list of sub-commands of a group such as 'account'. \
        Without a command, the list of every command.
        """,
      examples: ["serverbee help", "serverbee help account 2fa enable", "serverbee help users"],
      opensSession: false, run: HelpText.run),
  ]
}
