import ServerBeeAPI
import ServerBeeModels

/// `serverbee account 2fa status | setup | enable [--code C] | disable [--password PW]`: the
/// account's two-factor sign-in (Protocol/Account.md §2).
///
/// `setup` is the one place the command line shows a secret, because that is its purpose: the
/// `otpauth://` QR code drawn on the terminal for an authenticator app, and the base32 secret for
/// typing in by hand. Nothing is stored here; the server keeps the pending secret 10 minutes.
enum TwoFactorCommands {
  /// `account 2fa status`.
  static func status(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let status = try await APIRequest.run("Loading the two-factor status", console: console) {
      try await api.twoFactorStatus()
    }
    if console.json {
      console.json(try WireJSON.encode(status))
    } else {
      console.line("Two-factor sign-in is \(status.enabled ? "on" : "off") for this account.")
    }
  }

  /// `account 2fa setup`: the QR code and the secret.
  static func setup(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let setup = try await APIRequest.run("Starting the two-factor setup", console: console) {
      try await api.setUpTwoFactor()
    }
    if console.json {
      console.json(
        try WireJSON.encode(["secret": setup.secret, "otpauth_url": setup.otpauthURL]))
      return
    }
    if let drawing = QRDrawing.text(for: setup.otpauthURL) { console.line(drawing) }
    console.line(
      "Scan the code with an authenticator app, or type in the secret: "
        + TerminalText.safe(setup.secret))
    console.line("Then, within 10 minutes: serverbee account 2fa enable --code CODE")
  }

  /// `account 2fa enable [--code C]`.
  static func enable(_ context: CommandContext) async throws {
    let console = context.console
    let code = try Prompt.value(
      context.arguments.values["code"], option: "code", label: "Code from the app",
      console: console)
    let api = try await APICredential.client(context)
    do {
      try await APIRequest.run("Turning two-factor sign-in on", console: console) {
        try await api.enableTwoFactor(code: code)
      }
    } catch let error as ServerBeeAPIError where error.code == .refused {
      // The handler's JSON 401 (Protocol/AppRoutes.md §2.1): the code, not the session.
      throw CommandLineError(
        .signInRefused,
        "the code is not the current one: check the authenticator app and the clock, then "
          + "try again (the setup stays pending for 10 minutes)", underlying: error)
    }
    if console.json {
      console.json(try WireJSON.encode(["enabled": true]))
    } else {
      console.line("Two-factor sign-in is on: every new sign-in now asks for a code.")
    }
  }

  /// `account 2fa disable [--password PW]`.
  static func disable(_ context: CommandContext) async throws {
    let console = context.console
    let password = try Prompt.value(
      context.arguments.values["password"], option: "password", label: "Password",
      secret: true, console: console)
    let api = try await APICredential.client(context)
    try await APIRequest.run("Turning two-factor sign-in off", console: console) {
      try await api.disableTwoFactor(password: password)
    }
    if console.json {
      console.json(try WireJSON.encode(["enabled": false]))
    } else {
      console.line("Two-factor sign-in is off.")
    }
  }
}
