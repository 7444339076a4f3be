import Foundation
import ServerBeeAPI
import ServerBeeModels

/// `serverbee traceroute SERVER TARGET`, `traceroute SERVER history`, `traceroute SERVER delete
/// ID` and `traceroute SERVER clear` (Protocol/AppRoutes.md §7): reading is for anyone signed
/// in; starting, deleting and clearing are for admins.
enum TracerouteCommands {
  private static let forbidden = "only an admin may start, delete or clear traceroutes"

  /// `traceroute SERVER TARGET [--protocol P]`: starts a run and prints each hop as it arrives.
  static func run(_ context: CommandContext) async throws {
    let console = context.console
    let target = context.arguments.argument(1)
    let kind = try protocolOption(context)
    let api = try await APICredential.client(context)
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(context.arguments.argument(0))
    let name = TerminalText.safe(server.name)
    let run = api.runTraceroute(
      serverID: server.id, TracerouteRequest(target: target, protocol: kind))
    var shown = 0
    var last: TracerouteSnapshot?
    do {
      for try await snapshot in run {
        if last == nil && !console.json {
          console.line(
            TerminalText.safe(
              "traceroute to \(target) from \(server.name) (\(snapshot.protocol.rawValue)), "
                + "run \(snapshot.requestID)"))
        }
        last = snapshot
        guard !console.json else { continue }
        for hop in snapshot.hops.dropFirst(shown) { console.line(line(hop)) }
        shown = max(shown, snapshot.hops.count)
      }
    } catch let error as ServerBeeAPIError {
      switch error.code {
      case .agentOffline:
        throw CommandLineError(
          .refused, "the agent of \(name) is not connected, so it cannot trace",
          underlying: error)
      case .forbidden: throw CommandLineError(.notPermitted, forbidden, underlying: error)
      case .timedOut:
        throw CommandLineError(
          .unexpectedAnswer,
          "the traceroute did not finish within 30 polls 2 s apart; it may still finish "
            + "('serverbee traceroute \(name) history')", underlying: error)
      default: throw error
      }
    }
    guard let last else { return }
    if console.json { console.json(try WireJSON.encode(last)) }
    if let failure = last.error {
      throw CommandLineError(
        .unexpectedAnswer,
        "the traceroute failed after \(last.hops.count) hop(s): \(TerminalText.safe(failure))")
    }
    if !console.json {
      let seconds = Double((last.completedAt ?? last.startedAt) - last.startedAt) / 1000
      console.line("done: \(last.hops.count) hop(s) in \(String(format: "%.1f", seconds)) s")
    }
  }

  /// `traceroute SERVER history [--limit N]`.
  static func history(_ context: CommandContext) async throws {
    let console = context.console
    let limit = try limitOption(context)
    let api = try await APICredential.client(context)
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(context.arguments.argument(0))
    let runs = try await APIRequest.run("Loading the traceroutes", console: console) {
      try await api.tracerouteHistory(serverID: server.id, limit: limit)
    }
    if console.json {
      console.json(try WireJSON.encode(runs))
      return
    }
    guard !runs.isEmpty else {
      console.line(
        TerminalText.safe(
          "No traceroutes for \(server.name) (start one with 'serverbee traceroute "
            + "\(server.name) TARGET')."))
      return
    }
    var table = TextTable(columns: [
      .left("ID"), .left("TARGET"), .left("PROTOCOL"), .left("STARTED"), .right("HOPS"),
      .left("STATE"),
    ])
    for run in runs {
      let state = run.hasError ? "failed" : run.completedAt == nil ? "running" : "done"
      table.append([
        run.requestID, Formatting.excerpt(run.target), run.protocol.rawValue,
        Formatting.time(Date(timeIntervalSince1970: Double(run.startedAt) / 1000)),
        "\(run.hopCount)", state,
      ])
    }
    console.line(table.render())
  }

  /// `traceroute SERVER delete ID`.
  static func delete(_ context: CommandContext) async throws {
    let console = context.console
    let id = context.arguments.argument(1)
    let api = try await APICredential.client(context)
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(context.arguments.argument(0))
    try await APIRequest.run(
      "Deleting the traceroute", console: console,
      notFound: "\(server.name) has no traceroute '\(id)' (see 'serverbee traceroute "
        + "\(server.name) history')", forbidden: forbidden
    ) { try await api.deleteTraceroute(serverID: server.id, requestID: id) }
    if console.json {
      console.json(try WireJSON.encode(["deleted": id]))
    } else {
      console.line(TerminalText.safe("Deleted traceroute \(id) of \(server.name)."))
    }
  }

  /// `traceroute SERVER clear`.
  static func clear(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(context.arguments.argument(0))
    let deleted = try await APIRequest.run(
      "Clearing the traceroutes", console: console, forbidden: forbidden
    ) { try await api.clearTraceroutes(serverID: server.id) }
    if console.json {
      console.json(try WireJSON.encode(TracerouteCleared(deleted: deleted)))
    } else {
      console.line(TerminalText.safe("Deleted \(deleted) traceroute(s) of \(server.name)."))
    }
  }

  /// One hop: position, address and name, the round trips, the AS.
  static func line(_ hop: TracerouteHop) -> String {
    let position = String(repeating: " ", count: max(0, 2 - "\(hop.hop)".count)) + "\(hop.hop)"
    guard let address = hop.ips?.first ?? hop.ip else { return "\(position)  *" }
    var text = "\(position)  \(address)"
    if let hostname = hop.hostname, hostname != address { text += " (\(hostname))" }
    if let average = hop.avgMs ?? hop.rtt1 {
      text += "  " + String(format: "%.2f ms", average)
    }
    if let loss = hop.lossPct, loss > 0 { text += String(format: "  %.0f%% loss", loss) }
    if let asn = hop.asn { text += "  \(asn)" }
    return TerminalText.safe(text)
  }

  /// `--protocol`: icmp, udp or tcp; `nil` when not given (the server's default, icmp).
  private static func protocolOption(_ context: CommandContext) throws -> TracerouteProtocol? {
    guard let text = context.arguments.values["protocol"] else { return nil }
    guard ["icmp", "udp", "tcp"].contains(text) else {
      throw CommandLineError(
        .usage, "--protocol takes icmp, udp or tcp, got '\(TerminalText.safe(text))'")
    }
    return TracerouteProtocol(rawValue: text)
  }

  /// `--limit`: 1 to 1000, 20 (the app's) when not given.
  private static func limitOption(_ context: CommandContext) throws -> Int {
    guard let text = context.arguments.values["limit"] else { return 20 }
    guard let number = Int(text), (1...1000).contains(number) else {
      throw CommandLineError(
        .usage, "--limit takes a whole number from 1 to 1000, got '\(TerminalText.safe(text))'")
    }
    return number
  }
}
