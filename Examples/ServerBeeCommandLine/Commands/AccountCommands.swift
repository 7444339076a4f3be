import Foundation
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTransport

/// `serverbee account password`, `account api-keys [create NAME --output FILE | delete ID]` and
/// `serverbee audit`: the account and administration routes.
enum AccountCommands {
  /// `account password [--old PW] [--new PW]`: asks for what is missing, without echo.
  static func password(_ context: CommandContext) async throws {
    let console = context.console
    let old = try Prompt.value(
      context.arguments.values["old"], option: "old", label: "Current password", secret: true,
      console: console)
    let new = try Prompt.value(
      context.arguments.values["new"], option: "new", label: "New password", secret: true,
      console: console)
    let (api, identity) = try await APICredential.client(context, serverURL: context.server)
    try await APIRequest.run("Changing the password", console: console) {
      try await api.changePassword(from: old, to: new)
    }
    if console.json {
      console.json(try WireJSON.encode(["changed": true]))
    } else if identity == nil {
      console.line("Password changed. The account's sessions ended.")
    } else {
      console.line(
        "Password changed. This login stays signed in; the account's other sessions ended.")
    }
  }

  /// `account api-keys`: this account's keys.
  static func apiKeys(_ context: CommandContext) async throws {
    let keys = try await ListOutput.load(context, "Loading API keys") { try await $0.apiKeys() }
    try await ListOutput.print(
      keys, empty: "No API keys.", console: context.console,
      columns: [.left("NAME"), .left("PREFIX"), .left("CREATED"), .left("ID")]
    ) { key in [key.name, key.keyPrefix, Formatting.time(key.createdAt), key.id] }
  }

  /// `account api-keys create NAME --output FILE` (admins): the key goes to a new file only.
  static func createAPIKey(_ context: CommandContext) async throws {
    let console = context.console
    guard let output = context.arguments.values["output"] else {
      throw CommandLineError(
        .usage, "use 'serverbee account api-keys create NAME --output FILE'")
    }
    let name = context.arguments.argument(0)
    let api = try await APICredential.client(context)
    // The file first: a key the server created but nobody could save would be lost. It is a
    // temporary file next to FILE, renamed into place only once the key is in it, so FILE is
    // never empty or half written, even when the command is killed.
    let target = SecretFile.Target(output)
    if let found = target.existing() {
      throw await APIKeyFileExplanation.error(for: found, name: name, api: api)
    }
    for found in target.leftovers() {
      console.error(
        try await APIKeyFileExplanation.leftover(found, name: name, target: output, api: api))
    }
    let file = try SecretFile(creating: target)
    let created: APIKeyRecord
    do {
      created = try await APIRequest.run(
        "Creating the API key", console: console,
        forbidden: "only an admin may create API keys"
      ) { try await api.createAPIKey(name: name) }
    } catch {
      file.discard()
      throw error
    }
    try file.commit(created.key ?? "", keyDescription: created.id)
    if console.json {
      console.json(
        try WireJSON.encode(["id": created.id, "key_prefix": created.keyPrefix, "file": output]))
    } else {
      console.line(
        TerminalText.safe(
          "Created API key \(created.name) (serverbee_\(created.keyPrefix)…): written to "
            + "\(output), readable only by you. The server never shows it again."))
    }
  }

  /// `account api-keys delete ID`.
  static func deleteAPIKey(_ context: CommandContext) async throws {
    let console = context.console
    let id = context.arguments.argument(0)
    guard !id.isEmpty else {
      throw CommandLineError(.usage, "use 'serverbee account api-keys delete ID'")
    }
    let api = try await APICredential.client(context)
    try await APIRequest.run(
      "Deleting the API key", console: console,
      notFound: "this account has no API key '\(id)' (see 'serverbee account api-keys')"
    ) { try await api.deleteAPIKey(id: id) }
    if console.json {
      console.json(try WireJSON.encode(["deleted": id]))
    } else {
      console.line(TerminalText.safe("Deleted API key \(id); it no longer signs in."))
    }
  }

  /// `audit [--limit N] [--offset N] [--action A] [--user ID]` (admins).
  static func audit(_ context: CommandContext) async throws {
    let values = context.arguments.values
    func count(_ name: String) throws -> Int? {
      guard let text = values[name] else { return nil }
      guard let value = Int(text), value >= 0 else {
        throw CommandLineError(.usage, "--\(name) takes a whole number ≥ 0")
      }
      return value
    }
    let (limit, offset) = (try count("limit"), try count("offset"))
    let api = try await APICredential.client(context)
    // The log keeps user ids; an admin can read the users, so names are shown (and --user
    // takes one). Best effort: an id stays an id when the list cannot be read.
    let users = (try? await api.users()) ?? []
    let names = Dictionary(users.map { ($0.id, $0.username) }, uniquingKeysWith: { a, _ in a })
    let userID = values["user"].map { given in
      names[given] != nil ? given : users.first { $0.username == given }?.id ?? given
    }
    let page = try await APIRequest.run(
      "Loading the audit log", console: context.console,
      forbidden: "only an admin may read the audit log"
    ) {
      try await api.auditLog(
        limit: limit, offset: offset, action: values["action"], userID: userID)
    }
    // The table, then which entries of how many it shows.
    try await ListOutput.print(
      page.entries, json: page, empty: "No audit entries (\(page.total) match).",
      console: context.console
    ) { entries in
      let first = (offset ?? 0) + 1
      return ListOutput.table(
        entries,
        columns: [.left("TIME"), .left("USER"), .left("ACTION"), .left("IP"), .left("DETAIL")]
      ) { entry in
        [
          Formatting.time(entry.createdAt), names[entry.userID] ?? entry.userID, entry.action,
          entry.ip, entry.detail ?? "",
        ]
      } + "\nEntries \(first)–\(first + entries.count - 1) of \(page.total)."
    }
  }
}
