import AuthSession
import Foundation
import ServerBeeKit
import ServerBeeModels
import ServerBeeTransport

/// `serverbee logout` and `serverbee status`.
enum SessionCommands {
  /// Logs out; works offline when the login holds a confirmed deletion proof.
  static func logout(_ context: CommandContext) async throws {
    let session = try await context.openSession()
    if let id = context.arguments.values["forget-pending"] {
      return try await forgetPending(id, session: session)
    }
    let outcome: LogoutOutcome
    do {
      outcome = try await Spinner.run("Signing out", console: context.console) {
        try await session.auth.logout()
      }
    } catch let error as AuthSessionError
      where [.networkFailure, .serverError].contains(error.code)
    {
      // Only a login whose deletion proof the server confirmed can be queued; this one is kept.
      guard case .signedIn(let identity) = session.auth.currentState else { throw error }
      throw CommandLineError(
        .localFailure,
        "this session can only be signed out online: the server never confirmed a deletion "
          + "proof for it (no refresh succeeded since signing in), so a queued sign-out would "
          + "not be accepted later. The login is kept; run 'serverbee logout' again when "
          + "\(identity.server) is reachable (\(ErrorLine.text(for: error)))")
    }
    let (key, sentence) = describe(outcome)
    if context.console.json {
      context.console.json(try WireJSON.encode(["outcome": key]))
    } else {
      context.console.line(sentence)
    }
  }

  /// `logout --forget-pending ID`: drops one queued sign-out (by its id or its session id)
  /// without telling the server.
  private static func forgetPending(_ id: String, session: ClientSession) async throws {
    let pending = try await session.auth.pendingCleanups()
    guard let entry = pending.first(where: { $0.id == id || $0.mobileSessionID == id }),
      let forgotten = try await session.auth.forgetPendingCleanup(id: entry.id)
    else {
      throw CommandLineError(
        .usage, "no queued sign-out has the id '\(id)' (see 'serverbee status')")
    }
    if session.console.json {
      session.console.json(try WireJSON.encode(["forgotten": forgotten.id]))
    } else {
      session.console.line(
        TerminalText.safe(
          "Forgot the queued sign-out of session \(forgotten.mobileSessionID) on "
            + "\(forgotten.server). The server was not told: if it still lists the session, "
            + "remove it under Settings → Mobile Devices."))
    }
  }

  /// The JSON key and the sentence for a logout outcome.
  static func describe(_ outcome: LogoutOutcome) -> (String, String) {
    switch outcome {
    case .completed:
      return ("completed", "Signed out: the server revoked the session.")
    case .pendingCleanup:
      return (
        "pending_cleanup",
        "Signed out locally. The server could not be reached; the revocation is queued and the "
          + "next serverbee command finishes it once the server is reachable."
      )
    case .serverNotReached:
      return ("server_not_reached", "Signed out locally; the server was not told (v1 server).")
    }
  }

  /// Shows the server, account, session state and queued sign-outs.
  static func status(_ context: CommandContext) async throws {
    let session = try ClientSession.open(home: context.home, console: context.console)
    let pass = try await session.prepare()
    let state = session.auth.currentState
    let pending = try await session.auth.pendingCleanups()
    var lastErrors: [String: String] = [:]
    for (entry, error) in pass?.failed ?? [] { lastErrors[entry.id] = ErrorLine.text(for: error) }
    let attempts = (try? await session.auth.pendingSignInAttempts()) ?? []
    let report = StatusReport(
      home: context.home.path, state: state, pending: pending, lastErrors: lastErrors,
      attempts: attempts)
    if context.console.json {
      context.console.json(try WireJSON.encode(report))
      return
    }
    var pairs = [("home:", report.home)]
    pairs.append(("session:", report.session.replacingOccurrences(of: "_", with: " ")))
    if let identity = report.identity {
      pairs.append(("server:", identity.server))
      pairs.append(("account:", "\(identity.username) (\(identity.role))"))
      pairs.append(("session id:", identity.mobileSessionID ?? "(v1 server: none)"))
    }
    pairs.append(("pending cleanups:", "\(pending.count)"))
    for entry in report.pendingCleanups {
      pairs.append(("", "\(entry.id): \(entry.server) session \(entry.mobileSessionID)"))
      pairs.append(("", "  queued \(entry.createdAt); last error: \(entry.lastError ?? "none")"))
    }
    if !attempts.isEmpty {
      pairs.append(("interrupted sign-ins:", "\(attempts.count)"))
      for attempt in attempts {
        pairs.append(
          (
            "",
            "\(attempt.server.string)\(attempt.username.map { " as \($0)" } ?? " (pairing)") at "
              + Formatting.time(attempt.startedAt)
          ))
      }
    }
    context.console.line(TextTable.keyValue(pairs))
    if !report.pendingCleanups.isEmpty {
      context.console.line(
        "A queued sign-out that keeps failing can be dropped: serverbee logout --forget-pending ID")
    }
    if !attempts.isEmpty {
      context.console.line(
        "A session an interrupted sign-in left on its server is removed after the next sign-in "
          + "there to the same account.")
    }
    switch state {
    case .restoring, .signedOut:
      context.console.line("Sign in with 'serverbee login' or 'serverbee pair'.")
    case .recoveryRequired:
      context.console.line("The server rejected this session: run 'serverbee recover'.")
    case .serverTooOld:
      context.console.line("The server is too old to recover this session (v1 server).")
    case .signedIn: break
    }
  }
}
