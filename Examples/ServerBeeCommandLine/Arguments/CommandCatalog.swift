/// Every subcommand of `serverbee`, with its options and help text.
enum CommandCatalog {
  /// Options every command accepts.
  static let globalOptions: [OptionSpec] = [
    OptionSpec(
      name: "home", valueName: "DIR",
      help: "state directory (default $SERVERBEE_HOME, else ~/.serverbee)"),
    OptionSpec(name: "server", valueName: "URL", help: "the ServerBee server URL"),
    OptionSpec(name: "json", valueName: nil, help: "machine-readable JSON on stdout"),
    OptionSpec(name: "help", valueName: nil, help: "show help"),
  ]

  /// The subcommands, in the order the help lists them.
  static let commands: [CommandSpec] = [
    CommandSpec(
      name: "demo", summary: "run a local simulator, pair, stream metrics, pushes, log out",
      usage: "demo [--duration S]",
      options: [OptionSpec(name: "duration", valueName: "S", help: "seconds of live metrics (16)")],
      discussion: """
        Starts an embedded ServerBee simulator and push relay on 127.0.0.1 with an admin, a \
        dozen servers and some alerts, pairs with its QR code through the SDK, streams live \
        metrics, enables notifications, receives a test push, an alert, a failed task run and a \
        security event through the relay (decrypted here, in English and Chinese), opens one \
        tap, lists alerts and devices, then logs out with revocation and shows the session is \
        gone. Needs no network; uses a temporary home unless --home is given.
        """,
      examples: ["serverbee demo", "serverbee demo --duration 5"]),
    CommandSpec(
      name: "login", summary: "sign in with user name and password",
      usage: "login --server URL --username U [--password P] [--totp CODE]",
      options: [
        OptionSpec(name: "username", valueName: "U", help: "the user name"),
        OptionSpec(name: "password", valueName: "P", help: "the password (prompted when omitted)"),
        OptionSpec(name: "totp", valueName: "CODE", help: "the TOTP code, for 2FA accounts"),
      ],
      discussion: """
        Signs in and keeps the session in the encrypted store. Missing values are prompted for \
        on a terminal (the password without echo); without a terminal they are usage errors.
        """,
      examples: ["serverbee login --server https://monitor.example.com --username ada"]),
    CommandSpec(
      name: "pair", summary: "sign in with the QR payload from Settings → Mobile Devices",
      usage: "pair 'QR-PAYLOAD-JSON'", options: [], positionals: 1...1,
      discussion: """
        Redeems the pairing code shown by the web app. With --server, a payload for another \
        server is refused.
        """,
      examples: [
        #"serverbee pair '{"type":"serverbee_pair","server_url":"https://monitor.example.com","code":"…"}'"#
      ]),
    CommandSpec(
      name: "servers", summary: "list servers: live state merged with configuration",
      usage: "servers", options: [.apiKey],
      discussion: """
        Waits for one full sync of the live stream and merges GET /api/servers. Works with an \
        API key instead of a mobile session (--api-key or $SERVERBEE_API_KEY, with --server): \
        the live stream takes X-API-Key too.
        """,
      examples: ["serverbee servers", "serverbee servers --json"]),
    CommandSpec(
      name: "watch", summary: "live table of CPU, memory, disk, network, online",
      usage: "watch [--once] [--duration S] [--interval S]",
      options: [
        OptionSpec(name: "once", valueName: nil, help: "print one snapshot after the first sync"),
        OptionSpec(name: "duration", valueName: "S", help: "stop after S seconds"),
        OptionSpec(name: "interval", valueName: "S", help: "seconds between redraws (1)"),
        .apiKey,
      ],
      discussion: """
        Redraws in place on a terminal; otherwise appends one snapshot per interval (one JSON \
        object per line with --json). Stops on Ctrl-C or after --duration. Works with an API \
        key instead of a mobile session (--api-key or $SERVERBEE_API_KEY, with --server).
        """,
      examples: ["serverbee watch", "serverbee watch --once --json"]),
    CommandSpec(
      name: "alerts", summary: "recent alert events; one alert's detail; alert rules",
      usage: "alerts [--limit N] | alerts show KEY | alerts rules [enable|disable ID]",
      options: [
        OptionSpec(name: "limit", valueName: "N", help: "how many events (50)"),
        .apiKey,
      ],
      positionals: 0...3,
      discussion: """
        Lists GET /api/alert-events, newest first, with each alert's KEY (last column). \
        'rules' lists the alert rules (admins) and 'rules enable|disable ID' turns one on or \
        off (PUT /api/alert-rules/{ID}). Every form works with an API key instead of a mobile \
        session (--api-key or $SERVERBEE_API_KEY, with --server). 'show \
        KEY' prints that alert's current cycle (GET /api/alert-events/{KEY}); an alert that \
        re-armed into a new cycle, or whose rule was deleted, is not found under its old key.
        """,
      examples: [
        "serverbee alerts", "serverbee alerts --limit 10 --json", "serverbee alerts show v1.WyJy…",
      ]),
    CommandSpec(
      name: "devices", summary: "mobile sessions of this account; revoke one",
      usage: "devices | devices revoke ID",
      options: [], positionals: 0...2,
      discussion: """
        Lists GET /api/mobile/auth/devices; this installation is marked with *. 'revoke ID' \
        ends another session of this account (its tokens and push registrations) and lists \
        what is left. This installation's own session is refused: use 'serverbee logout', \
        which also clears the local credentials.
        """,
      examples: ["serverbee devices", "serverbee devices revoke 5f0c…"]),
    CommandSpec(
      name: "account", summary: "password, two-factor sign-in, API keys",
      usage:
        "account password [--old PW --new PW] | account 2fa status|setup|enable|disable | "
        + "account api-keys [create NAME --output FILE | delete ID]",
      options: [
        OptionSpec(name: "old", valueName: "PW", help: "the current password (else asked)"),
        OptionSpec(name: "new", valueName: "PW", help: "the new password, 8+ characters"),
        OptionSpec(name: "code", valueName: "C", help: "2fa enable: the app's 6-digit code"),
        OptionSpec(
          name: "password", valueName: "PW", help: "2fa disable: the password (else asked)"),
        OptionSpec(name: "output", valueName: "FILE", help: "new file for a created key (0600)"),
        .apiKey,
      ],
      positionals: 1...3,
      discussion: """
        'password' changes this account's password (PUT /api/auth/password); the other \
        sessions end, this login stays. Passwords not given are asked for without echo. \
        '2fa status' says whether sign-in asks for a code; '2fa setup' draws the otpauth:// QR \
        code for an authenticator app and prints its secret (the server keeps it pending 10 \
        minutes); '2fa enable --code C' turns it on with a current code; '2fa disable' turns it \
        off with the password. 'api-keys' lists this account's keys; 'create NAME --output FILE' makes one (admins) \
        and writes it to a new file readable only by you (the key is never printed); 'delete \
        ID' deletes one. 'api-keys' works with an API key instead of a mobile session \
        (--api-key or $SERVERBEE_API_KEY, with --server), and so does '2fa'; 'password' needs \
        the session.
        """,
      examples: [
        "serverbee account password", "serverbee account 2fa setup",
        "serverbee account 2fa enable --code 123456", "serverbee account api-keys",
        "serverbee account api-keys create grafana --output ~/.grafana-key",
        "SERVERBEE_API_KEY=$(cat ~/.grafana-key) serverbee --server URL account api-keys",
      ]),
    CommandSpec(
      name: "users", summary: "list, create, change, reset and delete users (admins)",
      usage:
        "users | users create NAME [--role admin|member] | users set-role ID ROLE | "
        + "users reset-password ID | users delete ID",
      options: [
        OptionSpec(name: "role", valueName: "R", help: "admin or member (member)"),
        OptionSpec(
          name: "password", valueName: "PW", help: "the password (else asked without echo)"),
        .apiKey,
      ],
      positionals: 0...3,
      discussion: """
        Lists GET /api/users (oldest first); 'create' makes a user (passwords have 8 or more \
        characters), 'set-role' changes a role (the last admin stays one), 'reset-password' \
        sets a new password and ends every session of that user, 'delete' removes a user with \
        their sessions and API keys. Works with an API key instead of a mobile session \
        (--api-key or $SERVERBEE_API_KEY, with --server).
        """,
      examples: [
        "serverbee users", "serverbee users create bob --role member",
        "serverbee users set-role 5f0c… admin", "serverbee users delete 5f0c…",
      ]),
    CommandSpec(
      name: "channels", summary: "alert notification channels; enable, disable, test (admins)",
      usage: "channels | channels enable|disable|test ID",
      options: [.apiKey],
      positionals: 0...2,
      discussion: """
        Lists GET /api/notifications (name, type, on, id), never a channel's configuration, \
        which holds its secrets. 'enable|disable ID' turns one on or off (the server checks its \
        configuration again); 'test ID' sends a synthetic alert through it, even a disabled \
        one, and a delivery failure is the channel's own error (HTTP 502). Admins only. Works \
        with an API key instead of a mobile session (--api-key or $SERVERBEE_API_KEY, with \
        --server).
        """,
      examples: [
        "serverbee channels", "serverbee channels disable 3c1e…", "serverbee channels test 3c1e…",
      ]),
    CommandSpec(
      name: "audit", summary: "the audit log, newest first (admins)",
      usage: "audit [--limit N] [--offset N] [--action A] [--user ID]",
      options: [
        OptionSpec(name: "limit", valueName: "N", help: "entries per page (50; at most 200)"),
        OptionSpec(name: "offset", valueName: "N", help: "entries to skip (0)"),
        OptionSpec(name: "action", valueName: "A", help: "only this action, e.g. user.create"),
        OptionSpec(name: "user", valueName: "ID", help: "only this user id"),
        .apiKey,
      ],
      discussion: """
        Lists GET /api/audit-logs: time, user, action, address and detail, and which entries \
        of how many matching are shown. Works with an API key instead of a mobile session \
        (--api-key or $SERVERBEE_API_KEY, with --server).
        """,
      examples: [
        "serverbee audit", "serverbee audit --limit 20 --offset 20",
        "serverbee audit --action api_key.create --json",
      ]),
    CommandSpec(
      name: "tasks", summary: "tasks and their per-target results (admins)",
      usage: "tasks [--type oneshot|scheduled] | tasks results TASK-ID [--run RUN-ID]",
      options: [
        .apiKey,
        OptionSpec(name: "type", valueName: "T", help: "only oneshot or scheduled tasks"),
        OptionSpec(name: "run", valueName: "RUN-ID", help: "only the results of this run"),
      ],
      positionals: 0...2,
      discussion: """
        Lists GET /api/tasks, newest first. 'results TASK-ID' prints the per-target rows of \
        every run (up to 500, every attempt) with a summary of each run's final attempts; \
        with --run, only that run's rows (GET /api/tasks/{id}/results?run_id=…). Admins only.
        """,
      examples: [
        "serverbee tasks", "serverbee tasks results 2b1c… --run 9f3e…",
        "serverbee tasks results 2b1c… --json",
      ]),
    CommandSpec(
      name: "security", summary: "security events, newest first; one event's detail",
      usage: "security events [--server ID] [--limit N] | security event ID",
      options: [
        OptionSpec(
          name: "server", valueName: "ID",
          help: "only events of this monitored server (an id, not the ServerBee URL)"),
        OptionSpec(name: "limit", valueName: "N", help: "how many events (50)"),
      ],
      positionals: 1...2,
      discussion: """
        'events' lists GET /api/security/events page by page until --limit; 'event ID' prints \
        one event with its evidence. Here --server takes a server id (see 'serverbee servers \
        --json'); a value with :// is taken as the ServerBee URL, as everywhere else.
        """,
      examples: [
        "serverbee security events", "serverbee security events --server 9ebb… --json",
        "serverbee security event 3d2a…",
      ]),
    CommandSpec(
      name: "open", summary: "open a tapped notification: validate, load, show its screen",
      usage: "open FILE|-", options: [], positionals: 1...1,
      discussion: """
        The tap step alone: an APNs payload (a file, or - for stdin; the input of 'serverbee \
        push decrypt') is checked against this login and its stored content key, re-decrypted \
        for the tap and loaded with the current API. Prints the screen it ends on: the alert \
        detail, the task run's results, the security event, the home screen (a test \
        notification), or the safe fallback ("Alert not found", "Unavailable") when the item \
        is gone or not permitted. A payload that is not for this login or does not validate \
        opens nothing: one line on stderr and exit status 1.
        """,
      examples: ["serverbee open payload.json", "serverbee open - --json < payload.json"]),
    CommandSpec(
      name: "logout", summary: "sign out and revoke the session (works offline)",
      usage: "logout [--forget-pending ID]",
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
      examples: ["serverbee logout", "serverbee logout --forget-pending 3c1f…"]),
    CommandSpec(
      name: "pair-code", summary: "show a QR code that pairs another device as this account",
      usage: "pair-code", options: [],
      discussion: """
        Asks the server for a pairing code (POST /api/mobile/pair) and draws its QR code, for \
        the iOS app or another serverbee ('serverbee pair'). The code works once, within 5 \
        minutes, and replaces any earlier code of this account. It is a credential: show it \
        only to the device you pair.
        """,
      examples: ["serverbee pair-code", "serverbee pair-code --json"]),
    CommandSpec(
      name: "recover", summary: "recover a session the server rejected",
      usage: "recover [--username U] [--password P] [--totp CODE] [--pair-code QR] [--select ID]",
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
      ]),
    CommandSpec(
      name: "notifications", summary: "push settings as the server confirmed them; test pushes",
      usage:
        "notifications [show | enable | disable | set | test] [--alerts on|off] [--security on|off] "
        + "[--task-failure on|off] [--task-success on|off] [--relay URL] [--lang en|zh-Hans] "
        + "[--wait] [--status]",
      options: [
        OptionSpec(name: "alerts", valueName: "on|off", help: "alert notifications"),
        OptionSpec(name: "security", valueName: "on|off", help: "security events (admins)"),
        OptionSpec(name: "task-failure", valueName: "on|off", help: "failed task runs (admins)"),
        OptionSpec(name: "task-success", valueName: "on|off", help: "succeeded task runs (admins)"),
        OptionSpec(
          name: "lang", valueName: "L", help: "en or zh-Hans for test status (default from LANG)"),
        OptionSpec(
          name: "wait", valueName: nil, help: "test: follow the push until its final outcome"),
        OptionSpec(
          name: "status", valueName: nil,
          help: "test: show (with --wait, follow) the last test of this login instead of a new one"),
        OptionSpec(
          name: "relay", valueName: "URL",
          help: "the serverbee-relay that issues this device's token (default $SERVERBEE_RELAY)"),
      ],
      positionals: 0...1,
      discussion: """
        Shows the settings the server confirmed, next to this installation's permission, its \
        registration, a choice the server has not confirmed yet and the last error. 'enable' and \
        'set' save the categories given (only the server's answer counts as saved); 'enable' then \
        registers this installation with a content key for encrypted pushes (delivered through the \
        server's push relay). With --relay URL (or SERVERBEE_RELAY) this installation is a local \
        device of that serverbee-relay: the relay issues its token, which is stored with the \
        relay's URL and is valid at once, so a test reaches 'accepted' before 'serverbee push \
        listen' runs (the relay holds the pushes until then). 'test' sends one encrypted test \
        notification and prints the server's first answer; with --wait it follows the test with live progress lines (pending, \
        retryable, then accepted, permanent or expired) and exits 0 only when the push provider \
        accepted it. 'test --status' reads the last test of this login again (the same event id: \
        no new test, no new deadline), for example after a lost answer or in a new terminal. \
        A member asking for security or task notifications is refused before anything is sent. \
        A failed load, save or registration exits 1 with one line; --json prints one document.
        """,
      examples: [
        "serverbee notifications", "serverbee notifications enable --alerts on",
        "serverbee notifications enable --relay http://127.0.0.1:8787",
        "serverbee notifications set --security off",
        "serverbee notifications test --wait --lang zh-Hans",
        "serverbee notifications test --status --wait",
      ]),
    CommandSpec(
      name: "push", summary: "receive encrypted pushes as a device of a serverbee-relay",
      usage:
        "push listen [--relay URL] [--count N] [--duration SECONDS] [--lang en|zh-Hans] [--open] "
        + "| push decrypt FILE|-",
      options: [
        OptionSpec(
          name: "relay", valueName: "URL",
          help: "the serverbee-relay (default $SERVERBEE_RELAY, else the one 'enable' stored)"),
        OptionSpec(name: "count", valueName: "N", help: "stop after N notifications"),
        OptionSpec(name: "duration", valueName: "SECONDS", help: "stop after this many seconds"),
        OptionSpec(
          name: "open", valueName: nil, help: "listen: tap each notification (as 'serverbee open')"),
        OptionSpec(name: "lang", valueName: "L", help: "en or zh-Hans (default from LANG)"),
      ],
      positionals: 1...2,
      discussion: """
        'decrypt' is the notification-extension step alone: an APNs payload (a file, or - for \
        stdin) in, the notification it shows out, using only the extension-shared key; any failure \
        shows the generic text. 'listen' subscribes this installation (registered by 'serverbee \
        notifications enable') to the relay's device stream (the relay stored by 'enable --relay' \
        unless --relay or SERVERBEE_RELAY names one), first receives what the relay held while \
        nobody listened, decrypts every push with the content key in the store and prints its \
        title and body; a push that cannot be opened shows the generic text. When the relay goes \
        away it reconnects (backoff up to 30 s), with one line on stderr per attempt; it ends \
        after --count notifications, after --duration seconds, on Ctrl-C, or with exit 1 when \
        the relay unregistered this device. The same event delivered twice is shown once. --json prints one object per \
        notification. With --open each notification is also tapped, as 'serverbee open' does: the \
        screen it opens (or its fallback) follows it, and a tap that opens nothing is one line on \
        stderr; with --json the tap's object follows the notification's.
        """,
      examples: [
        "serverbee push listen",
        "serverbee push listen --relay https://relay.example --json --count 1",
        "serverbee push listen --duration 60",
        "serverbee push listen --relay http://127.0.0.1:8787 --open",
        "serverbee push decrypt payload.json",
      ]),
    CommandSpec(
      name: "status", summary: "server, account, session state, pending cleanups",
      usage: "status", options: [],
      discussion: "Shows what is stored in the home directory; needs no network.",
      examples: ["serverbee status", "serverbee status --json"]),
  ]

  /// The command with that name.
  static func command(named name: String) -> CommandSpec? {
    commands.first { $0.name == name }
  }
}
