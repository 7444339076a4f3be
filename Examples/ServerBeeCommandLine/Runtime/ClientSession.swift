import AuthSession
import Foundation
import SecureStore
import ServerBeeKit
import ServerBeeModels
import ServerBeeTransport

/// The SDK objects one command works with: the SDK's `ServerBeeClient` over the encrypted store
/// in the home directory, and the parts of it commands use directly.
struct ClientSession: Sendable {
  /// The state directory.
  let home: URL
  /// The SDK facade (store, auth, REST client, live fleet).
  let client: ServerBeeClient
  /// The auth client (restored).
  let auth: AuthClient
  /// Unsigned HTTP (auth requests, checks with an explicit token).
  let http: any HTTPTransport
  /// HTTP with the session's bearer token.
  let api: AuthorizedHTTPTransport
  /// Where output goes.
  let console: Console

  /// Opens the store in `home` (creating it) and restores the stored login.
  /// - Throws: `SecureStoreError` or `AuthSessionError` when the store cannot be used.
  static func open(home: URL, console: Console) throws -> ClientSession {
    let hostName = ProcessInfo.processInfo.hostName
    // A private CA or a self-signed server: `SERVERBEE_CA_FILE` (PEM) is trusted for HTTP and
    // the live stream alike, next to the system store.
    var tls = TLSTrust()
    if let file = ProcessInfo.processInfo.environment["SERVERBEE_CA_FILE"], !file.isEmpty {
      tls = TLSTrust(additionalCAFile: URL(fileURLWithPath: file))
    }
    let client = ServerBeeClient(
      store: try EncryptedSQLiteCredentialStore(directory: home),
      configuration: .init(deviceName: "serverbee CLI on \(hostName)", tls: tls))
    return ClientSession(
      home: home, client: client, auth: client.auth, http: client.http,
      api: client.authorizedHTTP, console: console)
  }

  /// Restores the login and finishes queued sign-outs while their servers are reachable (best
  /// effort: failures stay queued and are not reported as errors).
  func prepare() async throws {
    try await auth.restore()
    guard let pending = try? await auth.pendingCleanups(), !pending.isEmpty else { return }
    guard let report = try? await auth.completePendingCleanups() else { return }
    for entry in report.settled {
      console.error("finished the queued sign-out from \(entry.server)")
    }
  }

  /// The signed-in identity, checked against `--server` when it was given.
  /// - Throws: ``CommandLineError`` when no usable session is stored.
  func requireSignedIn(server: String?) async throws -> SessionIdentity {
    switch auth.currentState {
    case .signedIn(let identity):
      if let server {
        guard let wanted = try? ServerURL(ServerOption.checked(server)) else {
          throw CommandLineError(.usage, "--server '\(server)' is not a valid server URL")
        }
        guard wanted == identity.server else {
          throw CommandLineError(
            .usage, "signed in to \(identity.server), not \(wanted): log out first")
        }
      }
      return identity
    case .recoveryRequired, .serverTooOld:
      throw CommandLineError(
        .notSignedIn, "the server rejected this session: run 'serverbee recover'")
    case .restoring, .signedOut:
      throw CommandLineError(
        .notSignedIn, "not signed in: run 'serverbee login' or 'serverbee pair' first")
    }
  }
}
