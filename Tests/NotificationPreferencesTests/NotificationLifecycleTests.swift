import Foundation
import PushEnvelopeCrypto
import SecureStore
import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import NotificationPreferences

private typealias F = Fixture

/// What survives a relaunch, what a login change leaves, and the extension step.
@Suite(.timeLimit(.minutes(5))) struct NotificationLifecycleTests {
  /// A second client on the same store and session: the app after a relaunch.
  static func relaunched(_ sut: ClientSUT, http: StubHTTPTransport) -> NotificationPreferencesClient
  {
    NotificationPreferencesClient(
      transport: http, session: sut.session, store: sut.store, authorization: sut.authorization,
      deviceTokens: FixedDeviceTokenProvider())
  }

  @Test func anUnconfirmedChoiceAndItsSaveErrorSurviveARelaunch() async throws {
    let sut = try ClientSUT(permission: .denied)
    await sut.expectSettings(F.document(1, F.alerts))
    await sut.client.reconcile()
    await sut.http.expect(
      .put, RouteCatalogue.Push.settings.template.text,
      throwing: ServerBeeTransportError(.connectionRefused, "refused"))
    await #expect(throws: NotificationPreferencesError.self) {
      try await sut.client.save(F.everything)
    }

    let http = StubHTTPTransport()
    let next = Self.relaunched(sut, http: http)
    await http.expect(
      .get, RouteCatalogue.Push.settings.template.text,
      reply: ClientSUT.reply(F.document(1, F.alerts)))
    await next.reconcile()
    #expect(next.state.unconfirmed == F.everything)
    #expect(next.state.saveError?.code == .transportFailed)
    #expect(next.state.saveError?.message.contains("refused") == true)
    #expect(next.state.confirmed?.revision == 1)

    // The server shows the choice at a newer revision: the lost save had landed.
    await http.expect(
      .get, RouteCatalogue.Push.settings.template.text,
      reply: ClientSUT.reply(F.document(2, F.everything)))
    await next.reconcile()
    #expect(next.state.unconfirmed == nil && next.state.saveError == nil)
    let third = Self.relaunched(sut, http: http)
    await http.expect(
      .get, RouteCatalogue.Push.settings.template.text,
      reply: ClientSUT.reply(F.document(2, F.everything)))
    await third.reconcile()
    #expect(third.state.unconfirmed == nil && third.state.saveError == nil)
  }

  @Test func aStoredChoiceOfAnotherLoginIsNotShown() async throws {
    let sut = try ClientSUT(permission: .denied)
    await sut.expectSettings(F.document(1, F.alerts))
    await sut.client.reconcile()
    await sut.http.expect(
      .put, RouteCatalogue.Push.settings.template.text,
      throwing: ServerBeeTransportError(.connectionLost, "lost"))
    _ = try? await sut.client.save(F.everything)
    sut.session.signIn(try FakeSessionContext.identity(user: "bob", loginID: "login-2"))
    let http = StubHTTPTransport()
    let next = Self.relaunched(sut, http: http)
    await http.expect(
      .get, RouteCatalogue.Push.settings.template.text,
      reply: ClientSUT.reply(F.document(1, F.alerts)))
    await next.reconcile()
    #expect(next.state.unconfirmed == nil && next.state.saveError == nil)
  }

  @Test func reconcileRegistersAgainWhenTheServerHoldsAnotherKey() async throws {
    let sut = try ClientSUT(permission: .authorized)
    // This installation holds a key the server never confirmed (another process registered
    // a key of its own in between): the server says "registered" all the same.
    let key = try PushContentKeyGenerator().makeKey(
      deploymentID: sut.identity.server.url.absoluteString, userID: sut.identity.user.id,
      installationID: sut.identity.installationID, scope: sut.identity.scope)
    try sut.store.setValue(key, forKey: .pushContentKey, in: .sharedWithExtension)
    await sut.expectSettings(F.document(4, F.alerts, registered: true))
    await sut.http.expect(
      .post, RouteCatalogue.Push.encryptedRegister.template.text,
      reply: ClientSUT.reply(F.document(4, F.alerts, registered: true)))
    await sut.client.reconcile()
    let register = try #require(
      await sut.http.requests(to: RouteCatalogue.Push.encryptedRegister.template.text).last)
    #expect(register.json["content_key_id"] as? String == key.keyID)
    #expect(sut.client.state.registration == .registered)
    // Confirmed now: the next reconcile sends nothing but the load.
    await sut.expectSettings(F.document(4, F.alerts, registered: true))
    await sut.client.reconcile()
    #expect(
      await sut.http.requests(to: RouteCatalogue.Push.encryptedRegister.template.text).count == 1)
    await sut.http.verifyAllConsumed()
  }

  @Test func enablingAfterALostRaceSettlesOnTheReloadedRevision() async throws {
    let sut = try ClientSUT(permission: .authorized)
    await sut.expectSettings(F.document(1, F.off))
    await sut.client.reconcile()
    await sut.http.expect(
      .put, RouteCatalogue.Push.settings.template.text,
      reply: .json(
        409,
        #"{"error":{"code":"CONFLICT","message":"Conflict: Notification settings changed; reload before saving"}}"#
      ))
    // Another process of this installation turned them on first.
    await sut.expectSettings(F.document(2, F.alerts))
    await sut.http.expect(
      .post, RouteCatalogue.Push.encryptedRegister.template.text,
      reply: ClientSUT.reply(F.document(3, F.alerts, registered: true)))
    let state = try await sut.client.enable(F.alerts)
    #expect(state.confirmed?.revision == 3)
    #expect(state.registration == .registered)
    #expect(state.saveError == nil && state.unconfirmed == nil)
    await sut.http.verifyAllConsumed()
  }

  @Test func loginScopedValuesNameTheKeyTheTestAndTheStoredState() {
    let slots = Set(NotificationPreferencesClient.loginScopedValues)
    #expect(slots.contains(CredentialSlot(.pushContentKey, in: .sharedWithExtension)))
    #expect(slots.contains(CredentialSlot(TestPushTracker.storeKey, in: .appPrivate)))
    #expect(slots.contains(CredentialSlot(StoredNotificationState.unconfirmedKey, in: .appPrivate)))
    #expect(
      slots.contains(CredentialSlot(StoredNotificationState.registrationKey, in: .appPrivate)))
  }
}

/// The notification extension's step: only the current login's key opens a payload.
@Suite struct NotificationExtensionStepTests {
  static let createdAt: Int64 = 2_000_000_000

  static func payload(for key: PushContentKey) throws -> Data {
    let content = PushContent(
      kind: .test, deploymentID: key.deploymentID, userID: key.userID,
      installationID: key.installationID, eventID: "5d41402a-bc4b-4a76-b971-9d911017c592",
      createdAt: createdAt, expiresAt: createdAt + 1800)
    let envelope = try PushEnvelopeSealer().seal(content, with: key)
    let sealed = String(decoding: try WireJSON.encode(envelope), as: UTF8.self)
    return Data(#"{"aps":{"mutable-content":1},"serverbee_envelope":\#(sealed)}"#.utf8)
  }

  static func stored(scope marker: String?) throws -> (InMemoryCredentialStore, Data) {
    let identity = try FakeSessionContext.identity(user: "ada")
    let key = try PushContentKeyGenerator().makeKey(
      deploymentID: identity.server.url.absoluteString, userID: identity.user.id,
      installationID: identity.installationID, scope: identity.scope)
    let store = InMemoryCredentialStore()
    try store.setValue(key, forKey: .pushContentKey, in: .sharedWithExtension)
    if let marker {
      try store.setValue(
        marker == "self" ? identity.scope : marker, forKey: .currentLoginScope,
        in: .sharedWithExtension)
    }
    return (store, try payload(for: key))
  }

  static let opener = PushEnvelopeOpener(now: {
    Date(timeIntervalSince1970: Double(createdAt) + 10)
  })

  @Test func theCurrentLoginsKeyOpensAndRendersThePayload() throws {
    let (store, payload) = try Self.stored(scope: "self")
    let result = NotificationExtensionStep(store: store, language: .english, opener: Self.opener)
      .process(apnsPayload: payload)
    #expect(result.content?.content.kind == .test)
    #expect(result.failure == nil)
    #expect(result.notification.isFallback == false)
  }

  @Test(arguments: [nil, "another-login-scope"])
  func aKeyThatIsNotTheCurrentLoginsOpensNothing(_ marker: String?) throws {
    let (store, payload) = try Self.stored(scope: marker)
    let result = NotificationExtensionStep(store: store, language: .english, opener: Self.opener)
      .process(apnsPayload: payload)
    #expect(result.content == nil)
    #expect(result.notification == PushNotificationRenderer(language: .english).fallback)
    #expect(result.failure?.contains("no content key of the current login") == true)
  }

  @Test func anUnreadableStoreShowsTheFallback() throws {
    let (store, payload) = try Self.stored(scope: "self")
    try store.setData(Data("not json".utf8), forKey: .pushContentKey, in: .sharedWithExtension)
    let result = NotificationExtensionStep(store: store, language: .english, opener: Self.opener)
      .process(apnsPayload: payload)
    #expect(result.content == nil && result.failure == "the content key could not be read")
  }
}
