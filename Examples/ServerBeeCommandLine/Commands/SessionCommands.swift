import AuthSession
import Foundation
import ServerBeeModels

/// `serverbee logout` and `serverbee status`.
enum SessionCommands {
  /// Logs out; works offline when the login holds a confirmed deletion proof.
  static func logout(_ context: CommandContext) async throws {
    let session = try await context.openSession()
    let outcome = try await Spinner.run("Signing out", console: context.console) {
      try await session.auth.logout()
    }
    let (key, sentence) = describe(outcome)
    if context.console.json {
      context.console.json(try WireJSON.encode(["outcome": key]))
    } else {
      context.console.line(sentence)
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
    let session = try await context.openSession()
    let state = session.auth.currentState
    let pending = try await session.auth.pendingCleanups()
    let report = StatusReport(home: context.home.path, state: state, pending: pending)
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
    for entry in pending {
      pairs.append(
        (
          "",
          "\(entry.server) session \(entry.mobileSessionID) since \(Formatting.time(entry.createdAt))"
        ))
    }
    context.console.line(TextTable.keyValue(pairs))
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
