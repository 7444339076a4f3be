import Foundation
import ServerBeeAPI
import ServerBeeKit
import ServerBeeModels
import ServerBeeTransport

/// Which credential a REST command uses: an API key when one is given (`--api-key`, or
/// `SERVERBEE_API_KEY`, with `--server`), else this home's mobile session. The key is never
/// printed; prefer the environment variable, which other users cannot read in `ps`.
enum APICredential {
  /// The environment variable that holds an API key.
  static let environmentVariable = "SERVERBEE_API_KEY"
  /// The environment variable that names the key's server when `--server` is not given.
  static let serverVariable = "SERVERBEE_SERVER"

  /// The API key and its server when one is given (`--api-key` or the environment, with
  /// `--server`, else `SERVERBEE_SERVER`); `nil` when none is.
  /// - Throws: ``CommandLineError`` `.usage` for a key without a server or a malformed key.
  static func key(_ context: CommandContext) throws -> (server: ServerURL, key: APIKey)? {
    try key(context, serverURL: context.server)
  }

  /// ``key(_:)`` for a command whose `--server` names something else (`security events
  /// --server ID`): `serverURL` is the ServerBee URL it was given, if any.
  static func key(_ context: CommandContext, serverURL: String?) throws -> (
    server: ServerURL, key: APIKey
  )? {
    func variable(_ name: String) -> String? {
      context.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
    guard let given = context.arguments.values["api-key"] ?? variable(environmentVariable) else {
      return nil
    }
    guard let serverText = serverURL ?? variable(serverVariable) else {
      throw CommandLineError(
        .usage, "an API key needs --server URL or $SERVERBEE_SERVER (the key's server)")
    }
    let server = try ServerURL(try ServerOption.checked(serverText))
    do {
      return (server, try APIKey(given))
    } catch {
      throw CommandLineError(
        .usage, "the API key is not usable: it is 1 to 512 visible ASCII characters")
    }
  }

  /// The platform's transports under the same settings as a session (`SERVERBEE_CA_FILE`).
  static func transports(_ context: CommandContext) -> ServerBeeClient.Transports {
    .platformDefault(ClientSession.configuration(home: context.home))
  }

  /// A client for `context`: on the API key when one is given, else on the stored session.
  /// - Throws: ``CommandLineError`` (`.usage` for a key without `--server` or a malformed
  ///   key; `.notSignedIn` without a key or a session).
  static func client(_ context: CommandContext) async throws -> ServerBeeAPIClient {
    try await client(context, serverURL: context.server).api
  }

  /// A client for `context` with the session's identity (`nil` on an API key); `serverURL`
  /// as in ``key(_:serverURL:)``.
  /// - Throws: As ``client(_:)``.
  static func client(_ context: CommandContext, serverURL: String?) async throws -> (
    api: ServerBeeAPIClient, identity: SessionIdentity?
  ) {
    if let (server, key) = try key(context, serverURL: serverURL) {
      let api = ServerBeeAPIClient(server: server, apiKey: key, transport: transports(context).http)
      return (api, nil)
    }
    let session = try await context.openSession()
    let identity = try await session.requireSignedIn(server: serverURL)
    return (ServerBeeAPIClient(server: identity.server, transport: session.api), identity)
  }
}
