import ServerBeeRoutes

extension CommandCatalog {
  private static let relay = OptionSpec(
    name: "relay", valueName: "URL",
    help: "the serverbee-relay that issues this device's token (default $SERVERBEE_RELAY)")
  private static let categories = [
    OptionSpec(name: "alerts", valueName: "on|off", help: "alert notifications"),
    OptionSpec(name: "security", valueName: "on|off", help: "security events (admins)"),
    OptionSpec(name: "task-failure", valueName: "on|off", help: "failed task runs (admins)"),
    OptionSpec(name: "task-success", valueName: "on|off", help: "succeeded task runs (admins)"),
  ]
  private static let failures = """
    A failed load, save or registration exits 1 with one line; --json prints one document.
    """
  /// What a tap loads (`TapRouter`), and the server names its screens show.
  private static let tapRoutes: [AnyAPIRoute] = [
    RouteCatalogue.Alerts.alertEvent.erased, RouteCatalogue.Tasks.taskResults.erased,
    RouteCatalogue.Account.currentUser.erased, RouteCatalogue.Servers.server.erased,
    RouteCatalogue.Security.securityEvent.erased, RouteCatalogue.Servers.servers.erased,
  ]
  private static let show = """
    Shows the settings the server confirmed, next to this installation's permission, its \
    registration, a choice the server has not confirmed yet and the last error. \(failures)
    """
  private static let showRoutes = [
    RouteCatalogue.Push.settings.erased, RouteCatalogue.Push.encryptedRegister.erased,
  ]
  private static let saveRoutes = [
    RouteCatalogue.Push.settings.erased, RouteCatalogue.Push.updateSettings.erased,
    RouteCatalogue.Push.encryptedRegister.erased,
  ]

  /// Push settings, test pushes, receiving pushes and opening them.
  static let notifications: [CommandDeclaration] = [
    CommandDeclaration(
      "notifications", summary: "push settings as the server confirmed them", options: [relay],
      discussion: show, examples: ["serverbee notifications", "serverbee notifications --json"],
      routes: showRoutes, run: { try await NotificationCommands.run($0, action: "show") }),
    CommandDeclaration(
      "notifications show", summary: "the same as 'serverbee notifications'", options: [relay],
      discussion: show, examples: ["serverbee notifications show"], routes: showRoutes,
      run: { try await NotificationCommands.run($0, action: "show") }),
    CommandDeclaration(
      "notifications enable", summary: "save categories and register this installation",
      options: categories + [
        relay,
        OptionSpec(
          name: "lang", valueName: "L", help: "en or zh-Hans for the notice (default from LANG)"),
        OptionSpec(
          name: "yes", valueName: nil,
          help: "the privacy notice was read (needed the first time when stdin is no terminal)"),
      ],
      discussion: """
        The first time on this installation it shows what the relay and Apple can and cannot \
        see ('serverbee notifications privacy') and asks to continue [y/N]; without a terminal \
        it is refused (exit 64) unless --yes (or --json) says the notice was read. The answer \
        is kept in the store, so later runs do not ask. Then it saves the categories given \
        (alerts alone when none is given; only the server's answer counts as saved), and \
        registers this installation with a content key for encrypted \
        pushes (delivered through the server's push relay). With --relay URL (or \
        SERVERBEE_RELAY) this installation is a local device of that serverbee-relay: the \
        relay issues its token, stored with the relay's URL and valid at once, so a test \
        reaches 'accepted' before 'serverbee push listen' runs. A member asking for security \
        or task notifications is refused before anything is sent. \(failures)
        """,
      examples: [
        "serverbee notifications enable --alerts on",
        "serverbee notifications enable --yes --relay http://127.0.0.1:8787",
      ],
      routes: saveRoutes, run: { try await NotificationCommands.run($0, action: "enable") }),
    CommandDeclaration(
      "notifications privacy", summary: "what the relay and Apple can and cannot see",
      options: [
        OptionSpec(name: "lang", valueName: "L", help: "en or zh-Hans (default: both)")
      ],
      discussion: """
        Prints the privacy notice 'notifications enable' shows before notifications are first \
        turned on: who decides what is sent, what the public relay and Apple see (device \
        token, times, sizes, ciphertext) and what they never see (the content key, the plain \
        text). Both languages unless --lang chooses one. Needs no network and no login.
        """,
      examples: [
        "serverbee notifications privacy", "serverbee notifications privacy --lang zh-Hans",
      ],
      opensSession: false, run: NotificationPrivacy.show),
    CommandDeclaration(
      "notifications disable", summary: "turn this installation's notifications off",
      options: [relay],
      discussion:
        "Turns notifications off for this installation ('enable' turns them on). \(failures)",
      examples: ["serverbee notifications disable"],
      routes: [RouteCatalogue.Push.settings.erased, RouteCatalogue.Push.updateSettings.erased],
      run: { try await NotificationCommands.run($0, action: "disable") }),
    CommandDeclaration(
      "notifications set", summary: "change notification categories",
      options: categories + [relay],
      discussion: "Saves the categories given (at least one). \(failures)",
      examples: ["serverbee notifications set --security off"], routes: saveRoutes,
      run: { try await NotificationCommands.run($0, action: "set") }),
    CommandDeclaration(
      "notifications test", summary: "send an encrypted test notification",
      options: [
        OptionSpec(
          name: "lang", valueName: "L", help: "en or zh-Hans for test status (default from LANG)"),
        OptionSpec(name: "wait", valueName: nil, help: "follow the push until its final outcome"),
        OptionSpec(
          name: "status", valueName: nil,
          help: "show (with --wait, follow) the last test of this login instead of a new one"),
        relay,
      ],
      discussion: """
        Sends one encrypted test notification and prints the server's first answer; with \
        --wait it follows the test with live progress lines (pending, retryable, then \
        accepted, permanent or expired) and exits 0 only when the push provider accepted it. \
        A stopped or retried delivery is followed by a line naming its cause and what to \
        check (a relay that refused the server's push, for example, points at the clocks). \
        --status reads the last test of this login again (the same event id: no new test, no \
        new deadline), for example after a lost answer or in a new terminal. Every read is \
        bounded by the 15 s request timeout: a server that cannot be reached twice in a row \
        ends the command with one line (exit 1), and the test stays stored for --status. \
        \(failures)
        """,
      examples: [
        "serverbee notifications test --wait --lang zh-Hans",
        "serverbee notifications test --status --wait",
      ],
      routes: [
        RouteCatalogue.Push.settings.erased, RouteCatalogue.Push.sendTest.erased,
        RouteCatalogue.Push.testStatus.erased,
      ],
      run: { try await NotificationCommands.run($0, action: "test") }),
    CommandDeclaration(
      "push listen", summary: "receive encrypted pushes as a device of a serverbee-relay",
      options: [
        OptionSpec(
          name: "relay", valueName: "URL",
          help: "the serverbee-relay (default $SERVERBEE_RELAY, else the one 'enable' stored)"),
        OptionSpec(name: "count", valueName: "N", help: "stop after N notifications"),
        OptionSpec(name: "duration", valueName: "SECONDS", help: "stop after this many seconds"),
        OptionSpec(
          name: "open", valueName: nil, help: "tap each notification (as 'serverbee open')"),
        OptionSpec(name: "lang", valueName: "L", help: "en or zh-Hans (default from LANG)"),
      ],
      discussion: """
        Subscribes this installation (registered by 'serverbee notifications enable') to the \
        relay's device stream, first receives what the relay held while nobody listened, \
        decrypts every push with the content key in the store and prints its title and body; \
        a push that cannot be opened shows the generic text. When the relay goes away it \
        reconnects (backoff up to 30 s), with one line on stderr per attempt; it ends after \
        --count notifications, after --duration seconds, on Ctrl-C, or with exit 1 when the \
        relay unregistered this device. The same event delivered twice is shown once. --json \
        prints one object per notification. With --open each notification is also tapped, as \
        'serverbee open' does (the only ServerBee routes it sends).
        """,
      examples: [
        "serverbee push listen",
        "serverbee push listen --relay https://relay.example --json --count 1",
        "serverbee push listen --duration 60",
        "serverbee push listen --relay http://127.0.0.1:8787 --open",
      ],
      routes: tapRoutes, usesInstallationKeys: true, run: PushCommands.listen),
    CommandDeclaration(
      "push decrypt", summary: "the notification-extension step alone",
      arguments: [.required("FILE|-")],
      options: [
        OptionSpec(name: "lang", valueName: "L", help: "en or zh-Hans (default from LANG)")
      ],
      discussion: """
        An APNs payload (a file, or - for stdin) in, the notification it shows out, using only \
        the extension-shared key; any failure shows the generic text and exits 1. Needs no \
        network.
        """,
      examples: ["serverbee push decrypt payload.json"], opensSession: false,
      run: PushCommands.decrypt),
    CommandDeclaration(
      "open", summary: "open a tapped notification: validate, load, show its screen",
      arguments: [.required("FILE|-")],
      discussion: """
        The tap step alone: an APNs payload (a file, or - for stdin; the input of 'serverbee \
        push decrypt') is checked against this login and its stored content key, re-decrypted \
        for the tap and loaded with the current API. Prints the screen it ends on: the alert \
        detail, the task run's results, the security event, the home screen (a test \
        notification), or the safe fallback ("Alert not found", "Unavailable") when the item \
        is gone or not permitted. A payload that is not for this login or does not validate \
        opens nothing: one line on stderr and exit status 1.
        """,
      examples: ["serverbee open payload.json", "serverbee open - --json < payload.json"],
      routes: tapRoutes, usesInstallationKeys: true, run: OpenCommand.run),
  ]
}
