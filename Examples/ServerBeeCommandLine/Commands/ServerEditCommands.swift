import Foundation
import ServerBeeAPI
import ServerBeeModels

/// `serverbee servers edit SERVER [--name N] [--group G|--no-group] …`,
/// `servers tags SERVER`, `servers tags set SERVER TAG…` and
/// `groups create NAME | rename ID NAME | weight ID N | delete ID` (admins;
/// Protocol/Servers.md §4).
enum ServerEditCommands {
  private static let forbidden = "only an admin may change servers and groups"

  /// The nullable fields of an edit: `--OPTION VALUE` sets, `--no-OPTION` clears, neither
  /// leaves the field alone.
  static let clearable: [(option: String, valueName: String, help: String)] = [
    ("group", "G", "put it in group G (id or name)"),
    ("country", "CC", "pin its flag to a 2-letter country code"),
    ("price", "P", "its price, 0 or more"),
    ("billing-cycle", "C", "monthly, quarterly or yearly"),
    ("currency", "C", "the price's currency (EUR, USD…)"),
    ("expires", "T", "when its plan expires, RFC 3339"),
    ("traffic-limit", "BYTES", "its traffic allowance in bytes"),
    ("traffic-limit-type", "T", "what the allowance counts: sum, up or down"),
    ("billing-day", "N", "the day of the month billing starts, 1–28"),
  ]

  /// The options of `servers edit`.
  static let editOptions: [OptionSpec] =
    [
      OptionSpec(name: "name", valueName: "N", help: "a new name"),
      OptionSpec(name: "weight", valueName: "N", help: "a new sort weight (higher first)"),
      OptionSpec(name: "hide", valueName: nil, help: "hide it from public pages"),
      OptionSpec(name: "show", valueName: nil, help: "show it on public pages"),
      OptionSpec(name: "remark", valueName: "T", help: "the private remark ('' blanks it)"),
      OptionSpec(name: "public-remark", valueName: "T", help: "the public remark ('' blanks it)"),
    ]
    + clearable.flatMap { option in
      [
        OptionSpec(name: option.option, valueName: option.valueName, help: option.help),
        OptionSpec(name: "no-" + option.option, valueName: nil, help: "clear it"),
      ]
    }

  /// `servers edit SERVER …`: changes what the options say and prints the server after.
  static func edit(_ context: CommandContext) async throws {
    let console = context.console
    let arguments = context.arguments
    var update = try request(values: arguments.values, flags: arguments.flags)
    let api = try await APICredential.client(context)
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(arguments.argument(0))
    var groups: [ServerGroup] = []
    if let group = arguments.values["group"] {
      groups = try await APIRequest.run("Finding the group", console: console) {
        try await api.serverGroups()
      }
      update.groupID = .set(try groups.resolve(group).id)
    }
    let edited = try await APIRequest.run(
      "Updating \(server.name)", console: console,
      notFound: "no server '\(server.id)' (see 'serverbee servers')", forbidden: forbidden
    ) { [update] in try await api.updateServer(id: server.id, update) }
    if console.json {
      console.json(try WireJSON.encode(edited))
      return
    }
    if edited.groupID != nil, groups.isEmpty {
      groups = (try? await api.serverGroups()) ?? []  // best effort: else the id stands in
    }
    console.line(TerminalText.safe("Updated \(edited.name) (id \(edited.id))."))
    console.line(TextTable.keyValue(summary(edited, groups: groups)))
  }

  /// The body the options ask for; the group is resolved by the caller.
  /// - Throws: ``CommandLineError`` `.usage` for a value that is not a number or a time, an
  ///   option given with its `--no-` form, `--hide` with `--show`, or no option at all.
  static func request(values: [String: String], flags: Set<String>) throws
    -> ServerUpdateRequest
  {
    var update = ServerUpdateRequest(
      name: values["name"], remark: values["remark"], publicRemark: values["public-remark"])
    if let weight = values["weight"] {
      guard let number = Int(weight) else {
        throw CommandLineError(.usage, "--weight takes a whole number, got '\(weight)'")
      }
      update.weight = number
    }
    switch (flags.contains("hide"), flags.contains("show")) {
    case (true, true): throw CommandLineError(.usage, "give --hide or --show, not both")
    case (true, false): update.hidden = true
    case (false, true): update.hidden = false
    case (false, false): break
    }
    func field<T>(_ option: String, _ parse: (String) -> T?, _ kind: String) throws
      -> FieldUpdate<T>
    {
      let value = values[option]
      let clear = flags.contains("no-" + option)
      if value != nil, clear {
        throw CommandLineError(.usage, "give --\(option) or --no-\(option), not both")
      }
      if clear { return .clear }
      guard let value else { return .unchanged }
      guard let parsed = parse(value) else {
        throw CommandLineError(.usage, "--\(option) takes \(kind), got '\(value)'")
      }
      return .set(parsed)
    }
    // The group is named here and resolved to an id by the caller.
    update.groupID = try field("group", { $0 }, "a group")
    update.countryCode = try field("country", { $0 }, "a country code")
    update.price = try field("price", { Double($0) }, "a number")
    update.billingCycle = try field("billing-cycle", { $0 }, "a cycle")
    update.currency = try field("currency", { $0 }, "a currency")
    update.expiredAt = try field(
      "expires", { try? RFC3339Timestamp(parsing: $0) },
      "an RFC 3339 time such as 2027-01-01T00:00:00Z")
    update.trafficLimit = try field("traffic-limit", { Int64($0) }, "a whole number of bytes")
    update.trafficLimitType = try field("traffic-limit-type", { $0 }, "sum, up or down")
    update.billingStartDay = try field("billing-day", { Int($0) }, "a day of the month")
    guard !update.isEmpty else {
      throw CommandLineError(
        .usage, "give at least one change (see 'serverbee servers edit --help')")
    }
    return update
  }

  /// What `servers edit` prints after the name: the fields an edit can change, the group by
  /// its name when `groups` has it (else by id).
  static func summary(_ server: ServerResponse, groups: [ServerGroup] = []) -> [(String, String)] {
    func text(_ value: String?) -> String { value.map { $0.isEmpty ? "''" : $0 } ?? "-" }
    let group = server.groupID.map { id in groups.first { $0.id == id }?.name ?? id }
    return [
      ("group:", text(group)),
      ("weight:", "\(server.weight)"),
      ("hidden:", server.hidden ? "yes" : "no"),
      ("country:", text(server.countryCode) + (server.geoManual ? " (pinned)" : "")),
      ("price:", server.price.map { "\($0)" + (server.currency.map { " \($0)" } ?? "") } ?? "-"),
      (
        "billing:", text(server.billingCycle) + (server.billingStartDay.map { ", day \($0)" } ?? "")
      ),
      ("expires:", server.expiredAt.map(Formatting.time) ?? "-"),
      (
        "traffic limit:",
        server.trafficLimit.map {
          Formatting.bytes($0) + (server.trafficLimitType.map { " (\($0))" } ?? "")
        } ?? "-"
      ),
      ("remark:", text(server.remark)),
      ("public remark:", text(server.publicRemark)),
    ]
  }

  /// `servers tags SERVER`: one tag a line.
  static func tags(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(context.arguments.argument(0))
    let tags = try await APIRequest.run("Loading tags", console: console) {
      try await api.serverTags(serverID: server.id)
    }
    report(tags, of: server, console)
  }

  /// `servers tags set SERVER [TAG…]`: replaces the tags (none removes them all).
  static func setTags(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let server = try await APIRequest.run("Finding the server", console: console) {
      try await api.servers()
    }.resolve(context.arguments.argument(0))
    let wanted = Array(context.arguments.positionals.dropFirst())
    let tags = try await APIRequest.run(
      "Setting tags", console: console, forbidden: forbidden
    ) { try await api.setServerTags(serverID: server.id, wanted) }
    report(tags, of: server, console)
  }

  private static func report(_ tags: [String], of server: ServerResponse, _ console: Console) {
    if console.json, let data = try? WireJSON.encode(tags) {
      console.json(data)
    } else if tags.isEmpty {
      console.line(TerminalText.safe("\(server.name) has no tags."))
    } else {
      console.line(TerminalText.safe("\(server.name): " + tags.joined(separator: " ")))
    }
  }

  /// `groups create NAME`.
  static func createGroup(_ context: CommandContext) async throws {
    let console = context.console
    let name = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    let group = try await APIRequest.run(
      "Creating the group", console: console, forbidden: forbidden
    ) { try await api.createServerGroup(name: name) }
    report(group, "Created", console)
  }

  /// `groups rename ID NAME`: another group may have that name.
  static func renameGroup(_ context: CommandContext) async throws {
    let (id, name) = (context.arguments.argument(0), context.arguments.argument(1))
    try await updateGroup(context, id: id, ServerGroupUpdateRequest(name: name), "Renamed")
  }

  /// `groups weight ID N`.
  static func weighGroup(_ context: CommandContext) async throws {
    let (id, text) = (context.arguments.argument(0), context.arguments.argument(1))
    guard let weight = Int(text) else {
      throw CommandLineError(.usage, "the weight is a whole number, got '\(text)'")
    }
    try await updateGroup(context, id: id, ServerGroupUpdateRequest(weight: weight), "Re-weighted")
  }

  private static func updateGroup(
    _ context: CommandContext, id: String, _ update: ServerGroupUpdateRequest, _ verb: String
  ) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let group = try await APIRequest.run(
      "Updating the group", console: console,
      notFound: "no group '\(id)' (see 'serverbee groups')", forbidden: forbidden
    ) { try await api.updateServerGroup(id: id, update) }
    report(group, verb, console)
  }

  /// `groups delete ID` (confirmed before it runs): its servers are left in no group.
  static func deleteGroup(_ context: CommandContext) async throws {
    let console = context.console
    let id = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    try await APIRequest.run(
      "Deleting the group", console: console,
      notFound: "no group '\(id)' (see 'serverbee groups')", forbidden: forbidden
    ) { try await api.deleteServerGroup(id: id) }
    if console.json {
      console.json(try WireJSON.encode(["deleted": id]))
    } else {
      console.line(TerminalText.safe("Deleted group \(id); its servers are in no group now."))
    }
  }

  private static func report(_ group: ServerGroup, _ verb: String, _ console: Console) {
    if console.json, let data = try? WireJSON.encode(group) {
      console.json(data)
    } else {
      console.line(
        TerminalText.safe("\(verb) group \(group.name) (weight \(group.weight), id \(group.id))."))
    }
  }
}

extension [ServerGroup] {
  /// The group named by `text`: its id, else its one group of that name (case-insensitive).
  /// - Throws: ``CommandLineError`` `.notFound` for no match, `.usage` for a name several
  ///   groups share.
  func resolve(_ text: String) throws -> ServerGroup {
    try NamedChoice.pick(
      text, in: self, noun: ("group", "groups"), list: "serverbee groups", id: \.id,
      name: \.name)
  }
}
