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
  /// - Parameters:
  ///   - home: The state directory.
  ///   - console: Where output goes.
  ///   - relay: The `serverbee-relay` that issues the local device token, if one was named
  ///     (`--relay`, `SERVERBEE_RELAY`); without one the stored token is used.
  /// - Returns: The session.
  /// - Throws: `SecureStoreError` or `AuthSessionError` when the store cannot be used.
  static func open(home: URL, console: Console, relay: URL? = nil) throws -> ClientSession {
    let client = ServerBeeClient(
      store: try EncryptedSQLiteCredentialStore(directory: home),
      configuration: configuration(home: home, relay: relay),
      // The command line is a local relay device on every platform (it has no app delegate).
      push: .localRelayDevice)
    return ClientSession(
      home: home, client: client, auth: client.auth, http: client.http,
      api: client.authorizedHTTP, console: console)
  }

  /// The client settings of every command that connects, the one place that reads the
  /// environment for them: the device name, and what TLS trusts (the system store, plus
  /// `SERVERBEE_CA_FILE`, a PEM file, for a private CA or a self-signed server). The client's
  /// HTTP and WebSocket transports are both built from it, so the trust holds for REST, the
  /// live stream and the relay's device stream alike.
  /// - Parameters:
  ///   - home: The state directory.
  ///   - relay: The relay that issues the local device token, if one was named.
  ///   - environment: The process environment.
  /// - Returns: The settings.
  static func configuration(
    home: URL, relay: URL? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ServerBeeClient.Configuration {
    let user = environment["USER"].flatMap { $0.isEmpty ? nil : $0 }
    var tls = TLSTrust()
    if let file = environment["SERVERBEE_CA_FILE"], !file.isEmpty {
      tls = TLSTrust(additionalCAFile: URL(fileURLWithPath: file))
    }
    return ServerBeeClient.Configuration(
      deviceName: deviceName(
        host: ProcessInfo.processInfo.hostName, user: user ?? NSUserName(), home: home),
      tls: tls, localRelayURL: relay)
  }

  /// The device name shown in the account's device list: the host, the user and a short id of
  /// the home directory, so two installations on one host (two users, or two `--home`s) can be
  /// told apart: `serverbee CLI on build-01 (ada, 3f9a1c)`.
  /// - Parameters:
  ///   - host: The host name.
  ///   - user: The local user name.
  ///   - home: The state directory.
  /// - Returns: The name.
  static func deviceName(host: String, user: String, home: URL) -> String {
    // FNV-1a over the standardized path: stable for one home, different for another.
    var hash: UInt32 = 2_166_136_261
    for byte in home.standardizedFileURL.path.utf8 {
      hash = (hash ^ UInt32(byte)) &* 16_777_619
    }
    let shortID = String(String(hash, radix: 16).suffix(6))
    return "serverbee CLI on \(host) (\(user), \(shortID))"
  }

  /// Restores the login through the SDK (which removes what interrupted sign-ins left and
  /// finishes queued sign-outs while their servers are reachable, best effort: failures stay
  /// queued and are not reported as errors), and says what it removed or finished.
  /// - Returns: What the pass over queued sign-outs achieved (`nil` when none were queued), so
  ///   `status` can show each one's last error.
  @discardableResult
  func prepare() async throws -> PendingCleanupReport? {
    let restored = try await client.restoreWithReport()
    if let sweep = restored.signInSweep { report(sweep) }
    for entry in restored.pendingCleanups?.settled ?? [] {
      console.error("finished the queued sign-out from \(entry.server)")
    }
    return restored.pendingCleanups
  }

  /// Prints one stderr line when a sweep of interrupted sign-ins removed sessions or could not
  /// run on this server; a failure stays silent (the attempts are kept, and `status` lists them).
  /// - Parameter sweep: What the sweep did.
  func report(_ sweep: SignInSweepReport) {
    if let line = Self.sentence(for: sweep) { console.error(line) }
  }

  /// The line ``report(_:)`` prints, if any.
  static func sentence(for sweep: SignInSweepReport) -> String? {
    switch sweep {
    case .cleaned(let revoked, _) where revoked > 0:
      return "removed \(revoked) session(s) an interrupted sign-in had left on the server"
    case .skipped(.serverDoesNotIdentifySessions):
      return "this server does not identify sessions; interrupted sign-ins were not cleaned up"
    default:
      return nil
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
