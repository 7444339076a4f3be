import Foundation
import ServerBeeAPI
import ServerBeeModels

/// `serverbee servers add NAME …`, `servers delete SERVER`, `agent code|replace|revoke-code
/// SERVER` and `agent latest` (Protocol/Agents.md): adding a server, its enrollment codes,
/// deleting it, and the newest agent release.
///
/// The plaintext code is printed exactly once, by the command that minted it, with the line
/// that installs the agent; nothing else ever prints it.
enum AgentCommands {
  private static let forbidden = "only an admin may add servers and manage their agents"

  /// `servers add NAME [--group G] [--tags T,…] [--ttl S] [--request-id ID]`.
  static func add(_ context: CommandContext) async throws {
    let console = context.console
    let arguments = context.arguments
    let name = arguments.argument(0)
    let tags = arguments.values["tags"].map {
      $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }
    let ttl = try seconds(arguments.values["ttl"])
    let requestID = arguments.values["request-id"] ?? UUID().uuidString.lowercased()
    let api = try await APICredential.client(context)
    var groupID: String?
    if let group = arguments.values["group"] {
      groupID = try await APIRequest.run("Finding the group", console: console) {
        try await api.serverGroups()
      }.resolve(group).id
    }
    let request = CreateServerRequest(
      onboardingRequestID: requestID, name: name, groupID: groupID, tags: tags, ttlSeconds: ttl)
    let created = try await APIRequest.run(
      "Adding \(name)", console: console, forbidden: forbidden
    ) { try await api.createServer(request) }
    if console.json {
      console.json(try WireJSON.encode(created))
      return
    }
    guard let issue = created.enrollment else {
      console.line(
        TerminalText.safe(
          "\(name) was added before by this request (id \(created.serverID)); its code was "
            + "shown then and cannot be shown again."))
      if let offer = created.outstandingOffer {
        console.line(
          TerminalText.safe(
            "Its open code starts \(offer.codePrefix)… and expires \(offer.expiresAt). "
              + "'serverbee agent replace \(created.serverID)' makes a new one."))
      }
      return
    }
    console.line(TerminalText.safe("Added \(name) (id \(created.serverID))."))
    show(issue, api: api, console)
  }

  /// `servers delete SERVER` (confirmed before it runs).
  static func delete(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(context.arguments.argument(0))
    try await APIRequest.run(
      "Deleting \(server.name)", console: console,
      notFound: "no server '\(server.id)' (see 'serverbee servers')", forbidden: forbidden
    ) { try await api.deleteServer(id: server.id) }
    if console.json {
      console.json(try WireJSON.encode(["deleted": server.id]))
    } else {
      console.line(
        TerminalText.safe("Deleted \(server.name) (id \(server.id)) and everything it recorded."))
    }
  }

  /// `agent code SERVER [--ttl S]`: a code for a server no agent holds.
  static func code(_ context: CommandContext) async throws {
    let console = context.console
    let ttl = try seconds(context.arguments.values["ttl"])
    let api = try await APICredential.client(context)
    let server = try await find(context, api)
    let issue: EnrollmentIssue
    do {
      issue = try await APIRequest.run(
        "Issuing a code", console: console, forbidden: forbidden
      ) { try await api.issueEnrollmentCode(serverID: server.id, ttlSeconds: ttl) }
    } catch let error as ServerBeeAPIError {
      throw explained(error, server)
    }
    report(issue, server, api, console)
  }

  /// `agent replace SERVER`: a fresh code in place of the open one (the open one is read from
  /// the server's list entry, else from the conflict an issue answers; with none open, the new
  /// code is simply issued).
  static func replace(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let server = try await find(context, api)
    var open = server.agentAuthority.outstandingOffer ?? server.outstandingEnrollment
    if open == nil {
      do {
        let issue = try await APIRequest.run(
          "Issuing a code", console: console, forbidden: forbidden
        ) { try await api.issueEnrollmentCode(serverID: server.id) }
        report(issue, server, api, console)
        return
      } catch let error as ServerBeeAPIError {
        guard let current = error.apiFailure?.currentOffer else { throw explained(error, server) }
        open = current
      }
    }
    guard let offerID = open?.id else { return }
    do {
      let issue = try await APIRequest.run(
        "Replacing the code", console: console, forbidden: forbidden
      ) { try await api.replaceEnrollmentCode(serverID: server.id, offerID: offerID) }
      report(issue, server, api, console)
    } catch let error as ServerBeeAPIError {
      throw explained(error, server)
    }
  }

  /// `agent revoke-code SERVER [--offer ID]`: ends the open code.
  static func revokeCode(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let server = try await find(context, api)
    let listed = server.agentAuthority.outstandingOffer ?? server.outstandingEnrollment
    guard let offerID = context.arguments.values["offer"] ?? listed?.id else {
      throw CommandLineError(
        .notFound,
        TerminalText.safe(
          "\(server.name) shows no open code; give its id with --offer if you have it"))
    }
    let answer: RevokeOfferResponse
    do {
      answer = try await APIRequest.run(
        "Revoking the code", console: console,
        notFound: "no code '\(offerID)' on \(server.name)", forbidden: forbidden
      ) { try await api.revokeEnrollmentCode(serverID: server.id, offerID: offerID) }
    } catch let error as ServerBeeAPIError {
      throw explained(error, server)
    }
    if console.json {
      console.json(try WireJSON.encode(answer))
    } else {
      console.line(
        TerminalText.safe(
          answer.alreadyRevoked
            ? "Code \(offerID) of \(server.name) was revoked already."
            : "Revoked code \(offerID) of \(server.name)."))
    }
  }

  /// `agent reenrol SERVER [--emergency] [--ttl S]`: a new code for a server an agent holds;
  /// graceful keeps the agent until the code is used, emergency cuts it off now.
  static func reenrol(_ context: CommandContext) async throws {
    let console = context.console
    let ttl = try seconds(context.arguments.values["ttl"])
    let mode: ReEnrollmentMode =
      context.arguments.flags.contains("emergency") ? .emergency : .graceful
    let api = try await APICredential.client(context)
    let server = try await find(context, api)
    let issue: EnrollmentIssue
    do {
      issue = try await APIRequest.run(
        "Re-enrolling \(server.name)", console: console, forbidden: forbidden
      ) { try await api.reEnroll(serverID: server.id, mode: mode, ttlSeconds: ttl) }
    } catch let error as ServerBeeAPIError where error.apiFailure?.code == .agentAuthorityUnclaimed
    {
      throw CommandLineError(
        .unexpectedAnswer,
        TerminalText.safe(
          "no agent holds \(server.name); 'serverbee agent code \(server.name)' issues a code"),
        underlying: error)
    } catch let error as ServerBeeAPIError {
      throw explained(error, server)
    }
    if !console.json {
      console.line(
        mode == .emergency
          ? TerminalText.safe("\(server.name)'s agent was cut off; it is unclaimed now.")
          : TerminalText.safe("\(server.name)'s agent keeps running until the new code is used."))
    }
    report(issue, server, api, console)
  }

  /// `agent revoke SERVER` (confirmed before it runs): the agent is cut off, any open code
  /// ends, and the server is left unclaimed.
  static func revoke(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let server = try await find(context, api)
    let answer = try await APIRequest.run(
      "Revoking \(server.name)'s agent", console: console,
      notFound: "no server '\(server.id)' (see 'serverbee servers')", forbidden: forbidden
    ) { try await api.revokeAgentAuthority(serverID: server.id) }
    if console.json {
      console.json(try WireJSON.encode(answer))
    } else {
      console.line(
        TerminalText.safe(
          answer.changed
            ? "Revoked the agent of \(server.name): it is unclaimed, with no open code."
            : "\(server.name) was unclaimed already, with no open code."))
    }
  }

  /// `agent latest`: the newest agent release, or why it is not known.
  static func latest(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let latest = try await APIRequest.run("Asking for the latest agent", console: console) {
      try await api.latestAgentVersion()
    }
    if console.json {
      console.json(try WireJSON.encode(latest))
    } else if let version = latest.version {
      let released = latest.releasedAt.map { ", released \($0)" } ?? ""
      console.line(TerminalText.safe("The latest agent is \(version)\(released)."))
    } else {
      console.line(
        TerminalText.safe(
          "The server does not know the latest agent: \(latest.error ?? "no reason given")."))
    }
  }

  // MARK: Helpers

  private static func find(_ context: CommandContext, _ api: ServerBeeAPIClient) async throws
    -> ServerResponse
  {
    try await APIRequest.run("Finding the server", console: context.console) {
      try await api.servers()
    }.resolve(context.arguments.argument(0))
  }

  /// `--ttl S` as seconds, 1–86400.
  static func seconds(_ text: String?) throws -> Int? {
    guard let text else { return nil }
    guard let value = Int(text), (1...86_400).contains(value) else {
      throw CommandLineError(.usage, "--ttl is a whole number of seconds, 1–86400, got '\(text)'")
    }
    return value
  }

  /// The domain conflicts in the command's words; other errors as they are.
  static func explained(_ error: ServerBeeAPIError, _ server: ServerResponse) -> any Error {
    let name = TerminalText.safe(server.name)
    switch error.apiFailure?.code {
    case .agentAuthorityAlreadyClaimed?:
      return CommandLineError(
        .unexpectedAnswer,
        "an agent holds \(name) already; 'serverbee agent reenrol \(name)' gives it a new code",
        underlying: error)
    case .enrollmentOfferOutstanding?:
      let prefix = error.apiFailure?.currentOffer.map { " (\(TerminalText.safe($0.codePrefix))…)" }
      return CommandLineError(
        .unexpectedAnswer,
        "\(name) has an open code\(prefix ?? ""); 'serverbee agent replace \(name)' makes a new one",
        underlying: error)
    case .enrollmentOfferTerminal?, .enrollmentOfferStale?:
      return CommandLineError(
        .unexpectedAnswer,
        "that code has ended: \(TerminalText.safe(error.apiFailure?.detail ?? "")); try again",
        underlying: error)
    default:
      return error
    }
  }

  private static func report(
    _ issue: EnrollmentIssue, _ server: ServerResponse, _ api: ServerBeeAPIClient,
    _ console: Console
  ) {
    if console.json, let data = try? WireJSON.encode(issue) {
      console.json(data)
      return
    }
    console.line(TerminalText.safe("New enrollment code for \(server.name) (id \(server.id))."))
    show(issue, api: api, console)
  }

  /// The code, once, and the line that installs the agent with it.
  private static func show(_ issue: EnrollmentIssue, api: ServerBeeAPIClient, _ console: Console) {
    let code = TerminalText.safe(issue.code)
    console.line(
      TerminalText.safe("Enrollment code (shown this once; expires \(issue.expiresAt)):"))
    console.line("  " + code)
    console.line("Install the agent on the server with ServerBee's deploy/install.sh, as root:")
    console.line(
      "  sudo bash install.sh agent --server-url '\(TerminalText.safe(api.server.string))' "
        + "--enrollment-code '\(code)'")
  }
}
