import AuthSession
import Foundation
import SecureStore
import ServerBeeAPI
import ServerBeeKit
import ServerBeeModels

/// Sign-ins that were sent but whose answer this installation may never have seen (the process
/// was killed, the connection dropped after the server committed). Each is recorded in the store
/// *before* the request goes out, so a later run can find the server session it may have left
/// behind: a session of this account on this installation that is neither the current login
/// nor a queued sign-out belongs to nobody, and is revoked (`DELETE /api/mobile/auth/devices/…`)
/// once this installation is signed in to that server again. Until then `status` lists them.
///
/// ```swift
/// let outcome = try await SignInAttempts.record(server: url, username: "ada", in: store) {
///   try await auth.login(server: url, username: "ada", password: password)
/// }
/// ```
enum SignInAttempts {
  /// One attempt, without any secret.
  struct Attempt: Codable, Sendable, Hashable {
    /// The server, normalised (`ServerURL.string`).
    var server: String
    /// The user name for a password sign-in; `nil` for pairing.
    var username: String?
    /// When it was sent.
    var startedAt: Date
  }

  /// Where the attempts are kept (app-private group).
  static let storeKey: CredentialKey = "cli.sign-in-attempts"
  /// The most attempts kept; older ones are dropped first.
  static let maximumCount = 16

  /// The unresolved attempts, oldest first (none when the store cannot be read).
  static func pending(in store: any CredentialStore) -> [Attempt] {
    ((try? store.value([Attempt].self, forKey: storeKey, in: .appPrivate)) ?? nil) ?? []
  }

  /// Records an attempt, runs the sign-in, and forgets the attempt again when the server's
  /// answer was seen and refused it. It stays after a success (the sweep after signing in
  /// forgets it) and whenever the answer may have been lost.
  /// - Parameters:
  ///   - server: The server URL as typed.
  ///   - username: The user name, for a password sign-in.
  ///   - store: The credential store.
  ///   - createsNoSession: Whether an answer means no session was made (2FA required).
  ///   - signIn: The sign-in request.
  /// - Returns: What `signIn` returns.
  /// - Throws: `AuthSessionError` when the attempt cannot be recorded, or what `signIn` throws.
  static func record<T: Sendable>(
    server: String, username: String?, in store: any CredentialStore,
    createsNoSession: (T) -> Bool = { _ in false }, _ signIn: () async throws -> T
  ) async throws -> T {
    let normalised = (try? ServerURL(server))?.string ?? server
    let attempt = Attempt(server: normalised, username: username, startedAt: Date())
    try save(Array((pending(in: store) + [attempt]).suffix(maximumCount)), in: store)
    do {
      let answer = try await signIn()
      if createsNoSession(answer) {
        try? save(pending(in: store).filter { $0 != attempt }, in: store)
      }
      return answer
    } catch let error as AuthSessionError where !mayHaveBeenLost(error) {
      try? save(pending(in: store).filter { $0 != attempt }, in: store)
      throw error
    }
  }

  /// Revokes the sessions interrupted sign-ins to the signed-in server left behind, then forgets
  /// those attempts; best effort (a failure keeps them for the next run).
  /// - Parameters:
  ///   - session: The signed-in session.
  ///   - identity: Its identity.
  /// - Returns: How many sessions were revoked, or `nil` when there was nothing to check or the
  ///   check failed.
  @discardableResult
  static func sweep(_ session: ClientSession, identity: SessionIdentity) async -> Int? {
    let store = session.client.store
    let attempts = pending(in: store)
    guard attempts.contains(where: { $0.server == identity.server.string }) else { return nil }
    let queued = Set(((try? await session.auth.pendingCleanups()) ?? []).map(\.mobileSessionID))
    let api = ServerBeeAPIClient(server: identity.server, transport: session.api)
    do {
      let orphans = try await api.devices().filter { device in
        device.installationID.lowercased() == identity.installationID.lowercased()
          && device.id != identity.mobileSessionID && !queued.contains(device.id)
      }
      for orphan in orphans { try await api.revokeDevice(id: orphan.id) }
      try save(attempts.filter { $0.server != identity.server.string }, in: store)
      if !orphans.isEmpty {
        session.console.error(
          "removed \(orphans.count) session(s) an interrupted sign-in had left on the server")
      }
      return orphans.count
    } catch {
      return nil
    }
  }

  /// Whether the server may have created a session although the answer was not seen.
  private static func mayHaveBeenLost(_ error: AuthSessionError) -> Bool {
    [.networkFailure, .serverError, .invalidResponse, .storageFailed].contains(error.code)
  }

  private static func save(_ attempts: [Attempt], in store: any CredentialStore) throws {
    do {
      if attempts.isEmpty {
        try store.removeValue(forKey: storeKey, in: .appPrivate)
      } else {
        try store.setValue(attempts, forKey: storeKey, in: .appPrivate)
      }
    } catch {
      throw CommandLineError(.localFailure, "the sign-in attempt could not be recorded")
    }
  }
}
