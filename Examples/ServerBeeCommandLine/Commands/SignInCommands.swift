import AuthSession
import ServerBeeKit
import ServerBeeModels
import ServerBeeTransport

/// `serverbee login` and `serverbee pair`.
enum SignInCommands {
  /// Signs in with a user name and password, prompting for what is missing on a terminal.
  static func login(_ context: CommandContext) async throws {
    let console = context.console
    let arguments = context.arguments
    let server = try ServerOption.checked(
      Prompt.value(context.server, option: "server", label: "Server URL", console: console))
    let username = try Prompt.value(
      arguments.values["username"], option: "username", label: "User name", console: console)
    let password = try Prompt.value(
      arguments.values["password"], option: "password", label: "Password", secret: true,
      console: console)
    let session = try await context.openSession()
    let givenTOTP = arguments.values["totp"]
    var outcome: LoginOutcome
    do {
      outcome = try await Spinner.run("Signing in to \(server)", console: console) {
        try await session.auth.login(
          server: server, username: username, password: password, totpCode: givenTOTP)
      }
    } catch let error as AuthSessionError
      where error.code == .invalidCredentials && givenTOTP != nil
    {
      throw CommandLineError(.signInRefused, "the user name, password or TOTP code is wrong")
    }
    if outcome == .twoFactorRequired, givenTOTP == nil {
      let totp = try Prompt.value(nil, option: "totp", label: "TOTP code", console: console)
      do {
        outcome = try await session.auth.login(
          server: server, username: username, password: password, totpCode: totp)
      } catch let error as AuthSessionError where error.code == .invalidCredentials {
        throw CommandLineError(.signInRefused, "the TOTP code is wrong or expired")
      }
    }
    guard case .signedIn(let identity) = outcome else {
      throw CommandLineError(.usage, "this account needs a TOTP code (--totp CODE)")
    }
    try await finish(identity, session: session, verb: "Signed in as")
  }

  /// Pairs with the QR payload text shown by the web app.
  static func pair(_ context: CommandContext) async throws {
    let payload = context.arguments.positionals[0]
    let expected = try context.server.map(ServerOption.checked)
    let session = try await context.openSession()
    let identity: SessionIdentity
    do {
      identity = try await Spinner.run("Pairing", console: context.console) {
        try await session.auth.pair(scannedPayload: payload, expectedServer: expected)
      }
    } catch let error as AuthSessionError where error.code == .pairingPayloadForAnotherServer {
      let target = (try? PairingPayload(scanned: payload))?.server.string ?? "another server"
      let wanted = expected.flatMap { try? ServerURL($0) }?.string ?? expected ?? ""
      throw CommandLineError(
        .usage, "this pairing code is for \(target), not for \(wanted) (--server)")
    }
    try await finish(identity, session: session, verb: "Paired as")
  }

  /// Whether the server confirmed a deletion proof right after signing in.
  enum ProofConfirmation: Equatable {
    /// Confirmed: a later logout works offline.
    case confirmed
    /// A v1 server: it has no deletion proofs.
    case unsupported
    /// The refresh failed (the reason), but the login is kept; a later refresh confirms it.
    case failed(String)
  }

  /// Confirms a deletion proof with one refresh. A failure that leaves the login signed in is
  /// not an error: the login is kept, and a later refresh proposes the proof again.
  /// - Throws: The refresh's error when the login is no longer signed in afterwards.
  static func confirmDeletionProof(_ auth: AuthClient) async throws -> ProofConfirmation {
    do {
      try await auth.confirmDeletionProof()
      return .confirmed
    } catch let error as AuthSessionError where error.code == .unsupportedByServer {
      return .unsupported
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      guard case .signedIn = auth.currentState else { throw error }
      return .failed(ErrorLine.text(for: error))
    }
  }

  /// Confirms a deletion proof (so a later logout works offline), removes sessions interrupted
  /// sign-ins left behind, and prints who signed in: the exit status and the message match the
  /// login that was kept.
  static func finish(_ identity: SessionIdentity, session: ClientSession, verb: String)
    async throws
  {
    let proof = try await confirmDeletionProof(session.auth)
    session.report(await session.auth.sweepInterruptedSignIns())
    let summary = IdentitySummary(identity)
    if session.console.json {
      session.console.json(try WireJSON.encode(summary))
    } else {
      session.console.line("\(verb) \(summary.sentence)")
      if proof == .unsupported {
        session.console.line("(this server does not support offline logout: it is a v1 server)")
      }
    }
    if case .failed(let reason) = proof {
      session.console.error(
        "note: the first refresh failed (\(reason)); the login is kept, but 'serverbee logout' "
          + "needs the server until a later command confirms a deletion proof")
    }
  }
}
