import AuthSession
import Foundation
import ServerBeeModels
import ServerBeeTransport

/// `serverbee recover`: asks the server to delete a session it rejected.
enum RecoverCommand {
  /// Runs the command.
  static func run(_ context: CommandContext) async throws {
    let arguments = context.arguments
    let console = context.console
    let qrText = arguments.values["pair-code"]
    let byPassword = qrText == nil
    if !byPassword, arguments.values["password"] != nil || arguments.values["username"] != nil {
      throw CommandLineError(.usage, "give either --pair-code or the password, not both")
    }
    let session = try await context.openSession()
    guard let identity = session.auth.currentState.identity,
      session.auth.currentState != .signedIn(identity)
    else {
      let signedIn = session.auth.currentState.identity != nil
      if console.json {
        console.json(try WireJSON.encode(["outcome": "nothing_to_recover"]))
      } else {
        console.line(
          signedIn
            ? "Nothing to recover: this session is signed in and was not rejected."
            : "Nothing to recover: no session is stored here.")
      }
      return
    }
    let credential: RecoveryCredential
    if let qrText {
      credential = .pairingQRCode(qrText)
    } else {
      let username = try Prompt.value(
        arguments.values["username"] ?? identity.user.username, option: "username",
        label: "User name", console: console)
      let password = try Prompt.value(
        arguments.values["password"], option: "password", label: "Password", secret: true,
        console: console)
      credential = .password(
        username: username, password: password, totpCode: arguments.values["totp"])
    }
    var result = try await Spinner.run("Recovering", console: console) {
      try await session.auth.recoverSession(credential)
    }
    if case .selectionRequired(let candidates) = result {
      let chosen = try choose(candidates, given: arguments.values["select"], console: console)
      let retry: RecoveryCredential? = byPassword ? credential : nil
      result = try await session.auth.recoverSession(selecting: chosen, with: retry)
    }
    guard case .completed(let outcome) = result else {
      throw CommandLineError(.unexpectedAnswer, "the server asked for a choice again")
    }
    if console.json {
      console.json(try WireJSON.encode(["outcome": outcome.rawValue]))
    } else {
      console.line("Recovered: \(describe(outcome)). Sign in again.")
    }
  }

  /// What a recovery achieved, in words (never the wire value).
  static func describe(_ outcome: RecoveryOutcome) -> String {
    switch outcome {
    case .ok: return "the server deleted the original session"
    case .alreadyAbsent: return "the original session was already gone from the server"
    default: return "the server reports the original session as gone"
    }
  }

  /// The candidate to delete: `--select`, else asked on a terminal.
  static func choose(_ candidates: [RecoveryCandidate], given: String?, console: Console) throws
    -> String
  {
    if let given { return given }
    console.error("The server could not tell which session to delete. Candidates:")
    console.error(Tables.candidates(candidates))
    guard console.stdinIsTerminal else {
      throw CommandLineError(.usage, "choose a session: run again with --select ID")
    }
    let answer = try Prompt.value(nil, option: "select", label: "Number", console: console)
    guard let number = Int(answer), candidates.indices.contains(number - 1) else {
      throw CommandLineError(.usage, "'\(answer)' is not one of the listed numbers")
    }
    return candidates[number - 1].mobileSessionID
  }
}
