import Foundation
import ServerBeeKit
import ServerBeeSimulator
import ServerBeeTestSupport
import Testing

/// A login's push values (the content key, the registration record, the test push, the
/// unconfirmed choice) leave the store with the login, in the very write that ends or replaces
/// it: read from the raw store, after each kind of login change.
@Suite(.timeLimit(.minutes(5))) struct ServerBeeClientLoginScopeTests {
  /// The values by their stored names, so a renamed or forgotten one fails here.
  static let slots: [CredentialSlot] = [
    CredentialSlot("serverbee_active_push_content_key", in: .sharedWithExtension),
    CredentialSlot("serverbee_notification_registration", in: .appPrivate),
    CredentialSlot("serverbee_pending_test_push", in: .appPrivate),
    CredentialSlot("serverbee_notification_unconfirmed_choice", in: .appPrivate),
  ]
  static let login = CredentialSlot("auth.login", in: .appPrivate)

  /// A client of the push world's simulator over `link`, on a store that records its writes.
  struct Installation {
    let world: ServerBeeClientPushTests.PushWorld
    let link: SimulatorLink
    let store = BatchRecordingStore()
    let client: ServerBeeClient

    init() async throws {
      world = try await ServerBeeClientPushTests.PushWorld()
      link = SimulatorLink(
        world.simulator,
        over: ServerBeeClient.Transports.platformDefault(.init(deviceName: "link")).http)
      client = ServerBeeClient(
        store: store, configuration: .init(deviceName: "Status board"),
        transports: .init(http: link, webSocket: FakeWebSocketTransport()))
      try await client.restore()
    }

    /// Signs in as `username` and stores every login-scoped value: notifications enabled (the
    /// key and the registration record), a test sent, and a save whose request was lost.
    func signInWithEveryValue(_ username: String = "ada") async throws -> SessionIdentity {
      let outcome = try await client.signIn(
        server: world.url.absoluteString, username: username, password: "pw")
      guard case .signedIn(let identity) = outcome else {
        throw ServerBeeClientError(.notSignedIn, "\(outcome)")
      }
      let state = try await client.notifications.enable(
        PushPreferences(enabled: true, alerts: true))
      #expect(state.registration == .registered)
      let revision = try #require(state.confirmed?.revision)
      for try await _ in await client.testPushes().send(expectedRevision: revision) {}
      link.refused.withLock { _ = $0.insert("/api/mobile/push/settings") }
      _ = try? await client.notifications.save(
        PushPreferences(enabled: true, alerts: true, taskFailure: true))
      link.refused.withLock { $0.removeAll() }
      for slot in ServerBeeClientLoginScopeTests.slots {
        #expect(try store.data(forKey: slot.key, in: slot.group) != nil, "\(slot.key) stored")
      }
      return identity
    }

    /// The login-scoped values still in the store.
    func remaining() throws -> [CredentialKey] {
      try ServerBeeClientLoginScopeTests.slots.filter {
        try store.data(forKey: $0.key, in: $0.group) != nil
      }.map(\.key)
    }

    /// Whether the last write of the login record also removed every login-scoped value.
    func lastLoginWriteRemovedEveryValue() -> Bool {
      let login = ServerBeeClientLoginScopeTests.login
      guard let write = store.batches().last(where: { $0.touches(login) }) else { return false }
      return ServerBeeClientLoginScopeTests.slots.allSatisfy { write.removes($0) }
    }
  }

  @Test func signingOutOnlineRemovesThemWithTheLogin() async throws {
    let installation = try await Installation()
    defer { installation.world.stop() }
    _ = try await installation.signInWithEveryValue()
    #expect(try await installation.client.signOut() == .completed)
    #expect(try installation.remaining() == [])
    #expect(installation.lastLoginWriteRemovedEveryValue())
  }

  @Test func signingOutOfflineRemovesThemWithTheLogin() async throws {
    let installation = try await Installation()
    defer { installation.world.stop() }
    _ = try await installation.signInWithEveryValue()
    _ = try await installation.client.auth.confirmDeletionProof()
    installation.link.offline.withLock { $0 = true }
    #expect(try await installation.client.signOut() == .pendingCleanup)
    #expect(try installation.remaining() == [])
    #expect(installation.lastLoginWriteRemovedEveryValue())
  }

  /// What a build before this fix left after a sign-out goes with the next account's sign-in.
  @Test func anotherAccountSigningInRemovesWhatTheFormerOneLeft() async throws {
    let installation = try await Installation()
    defer { installation.world.stop() }
    _ = try installation.world.simulator.createUser(username: "bob", password: "pw", role: "admin")
    _ = try await installation.signInWithEveryValue("ada")
    let left = try Self.slots.map { slot in
      (slot, try #require(try installation.store.data(forKey: slot.key, in: slot.group)))
    }
    _ = try await installation.client.signOut()
    var batch = CredentialBatch()
    for (slot, data) in left { batch.setData(data, forKey: slot.key, in: slot.group) }
    try installation.store.commit(batch)

    let outcome = try await installation.client.signIn(
      server: installation.world.url.absoluteString, username: "bob", password: "pw")
    guard case .signedIn(let bob) = outcome else {
      Issue.record("bob did not sign in: \(outcome)")
      return
    }
    #expect(bob.user.username == "bob")
    #expect(try installation.remaining() == [])
    #expect(installation.lastLoginWriteRemovedEveryValue())
  }

  @Test func aSessionRevokedFromAnotherDeviceTakesThemAtTheNextRefresh() async throws {
    let installation = try await Installation()
    defer { installation.world.stop() }
    let identity = try await installation.signInWithEveryValue()
    let sessionID = try #require(identity.mobileSessionID)
    let revoked = await installation.link.control(
      .delete, "/__simulator/mobile-sessions/\(sessionID)")
    #expect((200..<300).contains(revoked.status))
    let error = await #expect(throws: AuthSessionError.self) {
      try await installation.client.auth.refresh()
    }
    #expect(error?.code == .sessionRejected)
    // Its deletion proof was confirmed (enabling notifications does that), so the rejected
    // login is signed out with its clean-up queued; without one it would wait for recovery,
    // and the values would go just the same.
    #expect(installation.client.state == .signedOut)
    #expect(try installation.remaining() == [])
    #expect(installation.lastLoginWriteRemovedEveryValue())
  }
}

/// An in-memory store that keeps every batch it committed, to check what one write held.
final class BatchRecordingStore: CredentialStore {
  private let base = InMemoryCredentialStore()
  private let committed = Locked<[CredentialBatch]>([])

  /// The committed batches, oldest first.
  func batches() -> [CredentialBatch] { committed.withLock { $0 } }

  func data(forKey key: CredentialKey, in group: AccessGroup) throws -> Data? {
    try base.data(forKey: key, in: group)
  }

  func keys(in group: AccessGroup) throws -> [CredentialKey] { try base.keys(in: group) }

  func commit(_ batch: CredentialBatch) throws {
    try base.commit(batch)
    committed.withLock { $0.append(batch) }
  }
}

extension CredentialBatch {
  /// Whether a change of this batch sets, adds or removes `slot`.
  fileprivate func touches(_ slot: CredentialSlot) -> Bool {
    changes.contains { change in
      switch change {
      case .set(_, let key, let group), .add(_, let key, let group), .remove(let key, let group):
        return key == slot.key && group == slot.group
      }
    }
  }

  /// Whether this batch removes `slot`.
  fileprivate func removes(_ slot: CredentialSlot) -> Bool {
    changes.contains { $0 == .remove(key: slot.key, group: slot.group) }
  }
}
