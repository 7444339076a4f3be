import ServerBeeRoutes

extension CommandCatalog {
  /// This account: its password, two-factor sign-in and API keys.
  static let account: [CommandDeclaration] = [
    CommandDeclaration(
      "account password", summary: "change this account's password",
      options: [
        OptionSpec(name: "old", valueName: "PW", help: "the current password (else asked)"),
        OptionSpec(name: "new", valueName: "PW", help: "the new password, 8+ characters"),
      ],
      discussion: """
        Changes this account's password (PUT /api/auth/password); the other sessions end, this \
        login stays. Passwords not given are asked for without echo. Needs the session (not an \
        API key).
        """,
      examples: ["serverbee account password"],
      routes: [RouteCatalogue.Account.changePassword.erased], run: AccountCommands.password),
    CommandDeclaration(
      "account 2fa status", summary: "whether sign-in asks for a two-factor code",
      options: [.apiKey], discussion: "Says whether sign-in asks for a code. \(apiKeyNote)",
      examples: ["serverbee account 2fa status"],
      routes: [RouteCatalogue.Account.twoFactorStatus.erased], run: TwoFactorCommands.status),
    CommandDeclaration(
      "account 2fa setup", summary: "start two-factor setup: QR code and secret",
      options: [.apiKey],
      discussion: """
        Draws the otpauth:// QR code for an authenticator app and prints its secret (the \
        server keeps it pending 10 minutes); then 'account 2fa enable --code C'. \(apiKeyNote)
        """,
      examples: ["serverbee account 2fa setup"],
      routes: [RouteCatalogue.Account.setUpTwoFactor.erased], run: TwoFactorCommands.setup),
    CommandDeclaration(
      "account 2fa enable", summary: "turn two-factor sign-in on with a current code",
      options: [
        OptionSpec(name: "code", valueName: "C", help: "the app's 6-digit code (else asked)"),
        .apiKey,
      ],
      discussion: """
        Turns two-factor sign-in on with a current code of the authenticator app set up by \
        'account 2fa setup'; a wrong code says so and keeps the login. \(apiKeyNote)
        """,
      examples: ["serverbee account 2fa enable --code 123456"],
      routes: [RouteCatalogue.Account.enableTwoFactor.erased], run: TwoFactorCommands.enable),
    CommandDeclaration(
      "account 2fa disable", summary: "turn two-factor sign-in off",
      options: [
        OptionSpec(name: "password", valueName: "PW", help: "the password (else asked)"),
        .apiKey,
      ],
      discussion: """
        Turns two-factor sign-in off with the account's password: sign-in then asks for the \
        password alone. Asks first on a terminal; without one, --yes is needed. \(apiKeyNote)
        """,
      examples: ["serverbee account 2fa disable", "serverbee account 2fa disable --yes"],
      routes: [RouteCatalogue.Account.disableTwoFactor.erased],
      confirm: { _ in "Turn off two-factor sign-in for this account?" },
      run: TwoFactorCommands.disable),
    CommandDeclaration(
      "account api-keys", summary: "this account's API keys", options: [.apiKey],
      discussion: "Lists this account's API keys: name, prefix, created, id. \(apiKeyNote)",
      examples: [
        "serverbee account api-keys",
        "SERVERBEE_API_KEY=$(cat ~/.grafana-key) serverbee --server URL account api-keys",
      ],
      routes: [RouteCatalogue.Account.apiKeys.erased], run: AccountCommands.apiKeys),
    CommandDeclaration(
      "account api-keys create", summary: "make an API key into a new private file (admins)",
      arguments: [.required("NAME")],
      options: [
        OptionSpec(name: "output", valueName: "FILE", help: "new file for the key (0600)"),
        .apiKey,
      ],
      discussion: """
        Makes a key and writes it to a new file readable only by you; the key is never \
        printed, and an existing file is never overwritten. \(apiKeyNote)
        """,
      examples: ["serverbee account api-keys create grafana --output ~/.grafana-key"],
      routes: [RouteCatalogue.Account.createAPIKey.erased], run: AccountCommands.createAPIKey),
    CommandDeclaration(
      "account api-keys delete", summary: "delete an API key", arguments: [.required("ID")],
      options: [.apiKey],
      discussion: """
        Deletes the key: it no longer signs in. Asks first on a terminal; without one, --yes \
        is needed. \(apiKeyNote)
        """,
      examples: [
        "serverbee account api-keys delete 9a7e…", "serverbee account api-keys delete 9a7e… --yes",
      ],
      routes: [RouteCatalogue.Account.deleteAPIKey.erased],
      confirm: { "Delete API key \($0.first ?? "")? Whatever uses it can no longer sign in." },
      run: AccountCommands.deleteAPIKey),
  ]
}
