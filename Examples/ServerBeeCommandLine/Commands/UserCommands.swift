import Foundation
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTransport

/// `serverbee users [create NAME [--role R] | set-role ID ROLE | reset-password ID | delete ID]`
/// (admins; Protocol/Administration.md §1).
enum UserCommands {
  private static let forbidden = "only an admin may manage users"

  /// `users`: every user, oldest first.
  static func list(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let users = try await APIRequest.run(
      "Loading users", console: console, forbidden: forbidden
    ) { try await api.users() }
    if console.json {
      console.json(try WireJSON.encode(users))
    } else {
      var table = TextTable(columns: [
        .left("USER"), .left("ROLE"), .left("2FA"), .left("CREATED"), .left("ID"),
      ])
      for user in users {
        table.append([
          user.username, user.role.rawValue, user.hasTwoFactor ? "on" : "off",
          Formatting.time(user.createdAt), user.id,
        ])
      }
      console.line(table.render())
    }
  }

  /// `users create NAME [--role R] [--password PW]`.
  static func create(_ context: CommandContext) async throws {
    let console = context.console
    let name = context.arguments.argument(0)
    let role = context.arguments.values["role"].map { UserRole(rawValue: $0) }
    let password = try Prompt.value(
      context.arguments.values["password"], option: "password", label: "Password",
      secret: true, console: console)
    let api = try await APICredential.client(context)
    let user = try await APIRequest.run(
      "Creating \(name)", console: console, forbidden: forbidden
    ) { try await api.createUser(username: name, password: password, role: role) }
    report(user, "Created", console)
  }

  /// `users set-role ID ROLE`.
  static func setRole(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let (id, role) = (
      context.arguments.argument(0), UserRole(rawValue: context.arguments.argument(1))
    )
    let user = try await APIRequest.run(
      "Changing the role", console: console, notFound: "no user '\(id)' (see 'serverbee users')",
      forbidden: forbidden
    ) { try await api.updateUser(id: id, role: role) }
    report(user, "Updated", console)
  }

  /// `users reset-password ID [--password PW]`: every session of that user ends.
  static func resetPassword(_ context: CommandContext) async throws {
    let console = context.console
    let id = context.arguments.argument(0)
    let password = try Prompt.value(
      context.arguments.values["password"], option: "password", label: "New password",
      secret: true, console: console)
    let api = try await APICredential.client(context)
    let user = try await APIRequest.run(
      "Resetting the password", console: console,
      notFound: "no user '\(id)' (see 'serverbee users')", forbidden: forbidden
    ) { try await api.updateUser(id: id, password: password) }
    report(user, "Reset the password of", console, note: " Every session of theirs ended.")
  }

  /// `users delete ID`: with their sessions and API keys (confirmed before it runs).
  static func delete(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let id = context.arguments.argument(0)
    try await APIRequest.run(
      "Deleting the user", console: console,
      notFound: "no user '\(id)' (see 'serverbee users')", forbidden: forbidden
    ) { try await api.deleteUser(id: id) }
    if console.json {
      console.json(try WireJSON.encode(["deleted": id]))
    } else {
      console.line(TerminalText.safe("Deleted user \(id), with their sessions and API keys."))
    }
  }

  private static func report(
    _ user: AdminUser, _ verb: String, _ console: Console, note: String = ""
  ) {
    if console.json, let data = try? WireJSON.encode(user) {
      console.json(data)
    } else {
      console.line(
        TerminalText.safe("\(verb) \(user.username) (\(user.role.rawValue), id \(user.id)).")
          + note)
    }
  }
}
