import Foundation
import ServerBeeAPI
import ServerBeeModels

/// `serverbee servers records SERVER [--range R | --from T --to T] [--interval I]` and
/// `serverbee groups`.
enum ServerCommands {
  /// `servers records`: one server's history as a table, oldest first.
  static func records(_ context: CommandContext) async throws {
    let values = context.arguments.values
    let interval = try interval(values["interval"])
    let query = try range(values, interval: interval, now: Date())
    let named = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    let server = try await APIRequest.run("Finding the server", console: context.console) {
      try await api.servers()
    }.resolve(named)
    let records = try await APIRequest.run("Loading the history", console: context.console) {
      try await api.records(serverID: server.id, query: query)
    }
    let span = "\(Formatting.time(query.from)) to \(Formatting.time(query.to))"
    try await ListOutput.print(
      records, empty: TerminalText.safe("No records of \(server.name) from \(span)."),
      console: context.console
    ) { records in
      ListOutput.table(
        records,
        columns: [
          .left("TIME"), .right("CPU"), .right("MEMORY"), .right("DISK"), .right("NET IN"),
          .right("NET OUT"), .right("LOAD"),
        ]
      ) { record in
        [
          Formatting.time(record.time), Formatting.percent(record.cpu),
          Formatting.share(record.memUsed, of: server.memTotal),
          Formatting.share(record.diskUsed, of: server.diskTotal),
          Formatting.rate(record.netInSpeed), Formatting.rate(record.netOutSpeed),
          record.load1.map { String(format: "%.2f", $0) } ?? "-",
        ]
      } + "\n"
        + TerminalText.safe(
          "\(records.count) record(s) of \(server.name) from \(span) "
            + "(\(query.interval.rawValue))")
    }
  }

  /// `--interval raw|hourly|auto`.
  private static func interval(_ text: String?) throws -> RecordInterval {
    let known: [RecordInterval] = [.raw, .hourly, .auto]
    guard let text else { return .auto }
    guard let interval = known.first(where: { $0.rawValue == text }) else {
      throw CommandLineError(.usage, "--interval takes raw, hourly or auto, got '\(text)'")
    }
    return interval
  }

  /// `--from T --to T` (RFC 3339), or `--range` (`30m`, `1h`, `6h`, `24h`, `7d`; 1h by default).
  static func range(
    _ values: [String: String], interval: RecordInterval, now: Date
  ) throws -> ServerRecordsQuery {
    switch (values["from"], values["to"], values["range"]) {
    case (nil, nil, let range):
      return ServerRecordsQuery(
        last: try duration(range ?? "1h"), endingAt: now, interval: interval)
    case (let from?, let to?, nil):
      func time(_ text: String, _ option: String) throws -> RFC3339Timestamp {
        do {
          return try RFC3339Timestamp(parsing: text)
        } catch {
          throw CommandLineError(
            .usage, "--\(option) takes an RFC 3339 time such as 2026-05-20T10:00:00Z")
        }
      }
      let query = ServerRecordsQuery(
        from: try time(from, "from"), to: try time(to, "to"), interval: interval)
      guard query.from < query.to else {
        throw CommandLineError(.usage, "--from must be before --to")
      }
      return query
    default:
      throw CommandLineError(.usage, "give --from and --to together, or --range, not both")
    }
  }

  /// `30m`, `1h`, `7d`: a positive whole number of minutes, hours or days.
  private static func duration(_ text: String) throws -> Duration {
    let units: [Character: Int64] = ["m": 60, "h": 3600, "d": 86_400]
    guard let unit = text.last.flatMap({ units[$0] }), let count = Int64(text.dropLast()),
      (1...10_000).contains(count)
    else {
      throw CommandLineError(
        .usage, "--range takes a length such as 1h, 6h, 24h or 7d, got '\(text)'")
    }
    return .seconds(count * unit)
  }

  /// `groups`: the server groups, by weight, with how many servers each holds.
  static func groups(_ context: CommandContext) async throws {
    let api = try await APICredential.client(context)
    let groups = try await APIRequest.run("Loading server groups", console: context.console) {
      try await api.serverGroups()
    }
    try await ListOutput.print(groups, empty: "No server groups.", console: context.console) {
      groups in
      // The members are counted only for a table.
      let servers = (try? await api.servers()) ?? []
      return ListOutput.table(
        groups,
        columns: [
          .left("GROUP"), .right("WEIGHT"), .right("SERVERS"), .left("CREATED"), .left("ID"),
        ]
      ) { group in
        let members = servers.filter { $0.groupID == group.id }.count
        return [
          group.name, "\(group.weight)", "\(members)", Formatting.time(group.createdAt), group.id,
        ]
      }
    }
  }
}

extension [ServerResponse] {
  /// The server named by `text`: its id, else its one server of that name (case-insensitive).
  /// - Throws: ``CommandLineError`` `.notFound` for no match, `.usage` for a name several
  ///   servers share.
  func resolve(_ text: String) throws -> ServerResponse {
    try NamedChoice.pick(
      text, in: self, noun: ("server", "servers"), list: "serverbee servers", id: \.id,
      name: \.name)
  }
}
