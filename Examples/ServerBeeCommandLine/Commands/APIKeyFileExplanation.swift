import Foundation
import ServerBeeAPI
import ServerBeeModels

/// The sentences of `account api-keys create` when its file is already there, or an interrupted
/// run left a temporary file: which file, what it holds (empty, a key, something
/// else) and what to do, naming the account's keys it may belong to by name, public prefix and
/// id. A key itself is never read further than its public prefix, and never printed.
enum APIKeyFileExplanation {
  /// The error for a file found at the final path; nothing was sent to create a key.
  /// - Parameters:
  ///   - found: The file.
  ///   - name: The name the new key was to have.
  ///   - api: Lists the account's keys (best effort: without the list, the sentence says how
  ///     to list them).
  /// - Returns: The error.
  static func error(
    for found: SecretFile.Found, name: String, api: ServerBeeAPIClient
  ) async -> CommandLineError {
    let path = found.path
    let sentence: String
    switch found.contents {
    case .empty:
      sentence =
        "\(path) already exists and is empty, as a create interrupted before it saved its key "
        + "leaves it: delete it and run the command again. "
        + orphans(named: name, in: try? await api.apiKeys())
    case .key(let prefix):
      let keys = try? await api.apiKeys()
      if let key = keys?.first(where: { $0.keyPrefix == prefix }) {
        sentence =
          "\(path) already holds the API key \(describe(key)): choose a new file for the new "
          + "key, or delete the file (and the key with 'serverbee account api-keys delete "
          + "\(key.id)' when nobody uses it)"
      } else {
        sentence =
          "\(path) already holds an API key"
          + (keys == nil ? "" : " this account does not have (deleted, or another account's)")
          + ": choose a new file for the new key, or delete the file if nobody needs it"
      }
    case .other:
      sentence = "\(path) already exists and is not a key file: choose a new file for the key"
    case .unreadable:
      sentence = "\(path) already exists and could not be read: choose a new file for the key"
    }
    return CommandLineError(.localFailure, TerminalText.safe(sentence))
  }

  /// Handles a temporary file an interrupted run left: an empty one is removed and the
  /// returned note says which key on the server nobody may hold; one with a key in it stays.
  /// - Parameters:
  ///   - leftover: The temporary file.
  ///   - name: The name the new key is to have (the interrupted run likely used it too).
  ///   - target: The final path.
  ///   - api: Lists the account's keys.
  /// - Returns: The note for stderr.
  /// - Throws: ``CommandLineError`` for a temporary file that holds a key: it is not removed,
  ///   and the sentence says to move or delete it.
  static func leftover(
    _ leftover: SecretFile.Found, name: String, target: String, api: ServerBeeAPIClient
  ) async throws -> String {
    guard leftover.contents == .empty else {
      var holder = "something"
      if case .key(let prefix) = leftover.contents {
        let key = (try? await api.apiKeys())?.first { $0.keyPrefix == prefix }
        holder = key.map { "the API key \(describe($0))" } ?? "an API key"
      }
      throw CommandLineError(
        .localFailure,
        TerminalText.safe(
          "an interrupted create left \(holder) in \(leftover.path): move it to \(target) to "
            + "keep it, or delete it, then run the command again"))
    }
    unlink(leftover.path)
    return TerminalText.safe(
      "removed \(leftover.path), left empty by an interrupted create. "
        + orphans(named: name, in: try? await api.apiKeys()))
  }

  /// The sentence about keys a create interrupted before it saved its key may have left on
  /// the server: the account's keys of that name, or how to list them.
  private static func orphans(named name: String, in keys: [APIKeyRecord]?) -> String {
    let lead = "If that create reached the server, nobody holds its key: "
    guard let keys else {
      return lead
        + "'serverbee account api-keys' lists the keys and 'serverbee account api-keys delete "
        + "ID' removes one"
    }
    let named = keys.filter { $0.name == name }
    switch named.count {
    case 0:
      return lead + "no key of this account is named '\(name)' ('serverbee account api-keys' "
        + "lists them)"
    case 1:
      return lead + "the API key \(describe(named[0])) may be it; 'serverbee account api-keys "
        + "delete \(named[0].id)' removes it"
    default:
      return lead + "it may be one of the API keys "
        + named.map(describe).joined(separator: ", ")
        + "; 'serverbee account api-keys delete ID' removes one"
    }
  }

  private static func describe(_ key: APIKeyRecord) -> String {
    "'\(key.name)' (serverbee_\(key.keyPrefix)…, id \(key.id), created "
      + "\(Formatting.time(key.createdAt)))"
  }
}
