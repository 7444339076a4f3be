import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import NotificationPreferences

@Suite(.timeLimit(.minutes(5))) struct NotificationPreferencesClientTests {
  typealias F = Fixture

  @Test func enablingSavesThenAsksThenRegistersWithAKeyOfThisScope() async throws {
    let sut = try ClientSUT()
    await sut.expectSettings(F.document(0))
    await sut.client.reconcile()
    #expect(sut.authorization.promptCount == 0)  // loading never prompts

    await sut.http.expect(
      .put, RouteCatalogue.Push.settings.template.text,
      reply: ClientSUT.reply(F.document(1, F.alerts)))
    await sut.http.expect(.post, RouteCatalogue.Push.encryptedRegister.template.text) { request in
      ClientSUT.reply(F.document(2, F.alerts, registered: true))
    }
    let state = try await sut.client.enable()
    await sut.http.verifyAllConsumed()

    #expect(state.confirmed?.revision == 2)
    #expect(state.registration == .registered)
    #expect(state.permission == .authorized)
    #expect(sut.authorization.promptCount == 1)
    #expect(sut.session.confirmationCount == 2)  // before the PUT and before the register

    let put = try #require(
      await sut.http.requests(to: RouteCatalogue.Push.settings.template.text).last)
    #expect(put.json["expected_revision"] as? Int == 0)
    let register = try #require(
      await sut.http.requests(to: RouteCatalogue.Push.encryptedRegister.template.text).first)
    let key = try #require(sut.storedKey)
    #expect(key.scope == sut.identity.scope)
    #expect(register.json["expected_revision"] as? Int == 1)
    #expect(register.json["deployment_id"] as? String == sut.identity.server.url.absoluteString)
    #expect(key.deploymentID == sut.identity.server.url.absoluteString)
    #expect(register.json["content_key_id"] as? String == key.keyID)
    #expect(register.json["content_key"] as? String == key.key)
    #expect(register.json["device_token"] as? String == F.token.hex)
    #expect(register.json["environment"] as? String == "sandbox")
    #expect(key.keyID == key.keyID.lowercased() && UUID(uuidString: key.keyID) != nil)
    #expect(Data(base64Encoded: key.key)?.count == 32)
  }

  @Test func reconcileNeverPromptsAndRetriesOnlyWithPermission() async throws {
    let sut = try ClientSUT(permission: .notDetermined)
    await sut.expectSettings(F.document(3, F.alerts))
    await sut.client.reconcile()
    await sut.http.verifyAllConsumed()
    #expect(sut.authorization.promptCount == 0)
    #expect(sut.client.state.registration == .needsPermission)
  }

  @Test func reconcileRetriesAPendingRegistrationWhenAllowed() async throws {
    let sut = try ClientSUT(permission: .authorized)
    await sut.expectSettings(F.document(3, F.alerts))
    await sut.http.expect(
      .post, RouteCatalogue.Push.encryptedRegister.template.text,
      reply: ClientSUT.reply(F.document(4, F.alerts, registered: true)))
    await sut.client.reconcile()
    await sut.http.verifyAllConsumed()
    #expect(sut.client.state.registration == .registered)
    #expect(sut.authorization.promptCount == 0)
  }

  @Test func reconcileDeletesTheKeyWhenNotificationsAreOff() async throws {
    let sut = try ClientSUT(permission: .authorized)
    await sut.expectSettings(F.document(3, F.alerts))
    await sut.http.expect(
      .post, RouteCatalogue.Push.encryptedRegister.template.text,
      reply: ClientSUT.reply(F.document(4, F.alerts, registered: true)))
    await sut.client.reconcile()
    #expect(sut.storedKey != nil)
    await sut.expectSettings(F.document(5, F.off))  // disabled on another screen
    await sut.client.reconcile()
    await sut.http.verifyAllConsumed()
    #expect(sut.storedKey == nil)
  }

  @Test func aV1ServerIsUnsupported() async throws {
    let sut = try ClientSUT()
    await sut.http.expect(.get, RouteCatalogue.Push.settings.template.text, reply: .json(404, ""))
    await sut.client.reconcile()
    #expect(sut.client.state.isUnsupportedByServer)
    await sut.http.expect(.get, RouteCatalogue.Push.settings.template.text, reply: .json(404, ""))
    let error = await #expect(throws: NotificationPreferencesError.self) {
      try await sut.client.enable()
    }
    #expect(error?.code == .unsupportedByServer)
    await sut.http.verifyAllConsumed()
  }

  @Test func aConflictReloadsAndSaysSo() async throws {
    let sut = try ClientSUT()
    await sut.expectSettings(F.document(1, F.alerts))
    await sut.client.reconcile()
    await sut.http.expect(
      .put, RouteCatalogue.Push.settings.template.text,
      reply: .json(
        409,
        #"{"error":{"code":"CONFLICT","message":"Conflict: Notification settings changed; reload before saving"}}"#
      ))
    await sut.expectSettings(F.document(2, F.alerts))
    let error = await #expect(throws: NotificationPreferencesError.self) {
      try await sut.client.save(F.everything)
    }
    await sut.http.verifyAllConsumed()
    #expect(error?.code == .conflict)
    let state = sut.client.state
    #expect(state.notice == .reloadedAfterConflict)
    #expect(state.confirmed?.revision == 2)
    #expect(state.unconfirmed == F.everything)
    #expect(state.saveError?.code == .conflict)
  }

  @Test func aMemberAskingForAdminCategoriesIsRefusedBeforeAnythingIsSent() async throws {
    let sut = try ClientSUT(role: .member, permission: .denied)
    await sut.expectSettings(F.document(0, admin: false))
    let error = await #expect(throws: NotificationPreferencesError.self) {
      try await sut.client.save(F.everything)
    }
    #expect(error?.code == .notPermitted)
    #expect(error?.message.contains("admins") == true)
    #expect(
      await sut.http.requests(to: RouteCatalogue.Push.settings.template.text).filter {
        $0.method == .put
      }.isEmpty)
    #expect(sut.client.state.confirmed?.revision == 0)
    #expect(sut.client.state.saveError == nil)
  }

  @Test func aMembersSaveOfAllowedCategoriesGoesThrough() async throws {
    let sut = try ClientSUT(role: .member, permission: .denied)
    await sut.expectSettings(F.document(0, admin: false))
    await sut.http.expect(
      .put, RouteCatalogue.Push.settings.template.text,
      reply: ClientSUT.reply(F.document(1, F.alerts, admin: false))
    )
    try await sut.client.save(F.alerts)
    let put = try #require(
      await sut.http.requests(to: RouteCatalogue.Push.settings.template.text).last)
    let preferences = try #require(put.json["preferences"] as? [String: Bool])
    #expect(
      preferences == [
        "enabled": true, "alerts": true, "security": false, "task_failure": false,
        "task_success": false,
      ])
    #expect(sut.client.state.offersSecurity == false)
    #expect(sut.authorization.promptCount == 0)  // denied: only the system settings help
    #expect(sut.client.state.registration == .needsPermission)
  }

  @Test func aDemotedAdminCanStillTurnNotificationsOff() async throws {
    let sut = try ClientSUT(role: .member, permission: .denied)
    await sut.expectSettings(F.document(3, F.everything, admin: false))
    await sut.http.expect(
      .put, RouteCatalogue.Push.settings.template.text,
      reply: ClientSUT.reply(F.document(4, F.off, admin: false)))
    try await sut.client.disable()
    let put = try #require(
      await sut.http.requests(to: RouteCatalogue.Push.settings.template.text).last)
    let preferences = try #require(put.json["preferences"] as? [String: Bool])
    #expect(preferences["enabled"] == false && preferences["security"] == false)
  }

  @Test func disablingClearsTheKeyOnceTheServerConfirms() async throws {
    let sut = try ClientSUT(permission: .authorized)
    await sut.expectSettings(F.document(1, F.alerts))
    await sut.http.expect(
      .post, RouteCatalogue.Push.encryptedRegister.template.text,
      reply: ClientSUT.reply(F.document(2, F.alerts, registered: true)))
    await sut.client.reconcile()
    #expect(sut.storedKey != nil)
    await sut.http.expect(
      .put, RouteCatalogue.Push.settings.template.text, reply: ClientSUT.reply(F.document(3, F.off))
    )
    try await sut.client.disable()
    await sut.http.verifyAllConsumed()
    #expect(sut.storedKey == nil)
    #expect(sut.client.state.registration == .notRegistered)
  }

  @Test func signingOutRemovesTheKey() async throws {
    let sut = try ClientSUT(permission: .authorized)
    await sut.expectSettings(F.document(1, F.alerts))
    await sut.http.expect(
      .post, RouteCatalogue.Push.encryptedRegister.template.text,
      reply: ClientSUT.reply(F.document(2, F.alerts, registered: true)))
    await sut.client.reconcile()
    #expect(sut.storedKey != nil)
    var states = sut.client.states().makeAsyncIterator()
    sut.session.signOut()
    while let state = await states.next(), state.isSignedIn {}
    #expect(sut.storedKey == nil)
    #expect(sut.client.state.confirmed == nil)
  }

  @Test func aReplacementLoginRemovesTheOldKey() async throws {
    let sut = try ClientSUT(permission: .authorized)
    await sut.expectSettings(F.document(1, F.alerts))
    await sut.http.expect(
      .post, RouteCatalogue.Push.encryptedRegister.template.text,
      reply: ClientSUT.reply(F.document(2, F.alerts, registered: true)))
    await sut.client.reconcile()
    let oldKey = try #require(sut.storedKey)
    let replacement = try FakeSessionContext.identity(user: "ada", loginID: "login-2")
    sut.session.signIn(replacement)
    await sut.expectSettings(F.document(0))
    await sut.client.reconcile()
    await sut.http.verifyAllConsumed()
    #expect(sut.storedKey == nil)
    #expect(oldKey.scope != replacement.scope)
    #expect(sut.client.state.confirmed?.revision == 0)
  }

  @Test func aRegistrationForAnOlderLoginIsNeverSent() async throws {
    let sut = try ClientSUT(permission: .authorized)
    let gate = Gate()
    await sut.http.expect(.get, RouteCatalogue.Push.settings.template.text) { _ in
      await gate.wait()
      return ClientSUT.reply(F.document(1, F.alerts))
    }
    let reconcile = Task { await sut.client.reconcile() }
    await gate.waitForArrivals(1)
    sut.session.signIn(try FakeSessionContext.identity(user: "bob", loginID: "login-9"))
    await gate.open()
    await reconcile.value
    await sut.http.verifyAllConsumed()  // no register for ada's login under bob's token
    #expect(sut.storedKey == nil)
  }

  @Test func anInsecureServerIsNotRegistered() async throws {
    let sut = try ClientSUT(server: "http://monitor.example.com", permission: .authorized)
    await sut.expectSettings(F.document(1, F.alerts))
    await sut.client.reconcile()
    await sut.http.verifyAllConsumed()
    #expect(sut.client.state.registration.failureCode == .insecureServer)
    #expect(sut.storedKey == nil)
  }

  @Test func anUnconfirmedRegistrationAnswerIsAFailure() async throws {
    let sut = try ClientSUT(permission: .authorized)
    await sut.expectSettings(F.document(1, F.alerts))
    await sut.http.expect(
      .post, RouteCatalogue.Push.encryptedRegister.template.text,
      reply: ClientSUT.reply(F.document(2, F.alerts, registered: false)))
    await sut.client.reconcile()
    #expect(sut.client.state.registration.failureCode == .registrationNotConfirmed)
  }

  @Test func aLostSaveStaysVisibleUntilTheServerShowsItNewer() async throws {
    let sut = try ClientSUT(permission: .denied)
    await sut.expectSettings(F.document(1, F.alerts))
    await sut.client.reconcile()
    await sut.http.expect(
      .put, RouteCatalogue.Push.settings.template.text,
      throwing: ServerBeeTransportError(.connectionLost, "lost"))
    await #expect(throws: NotificationPreferencesError.self) {
      try await sut.client.save(F.everything)
    }
    #expect(sut.client.state.saveError?.code == .transportFailed)
    await sut.expectSettings(F.document(1, F.alerts))  // foreground: nothing new
    await sut.client.reconcile()
    #expect(sut.client.state.saveError != nil)
    await sut.expectSettings(F.document(2, F.everything))  // the lost save had landed
    await sut.client.reconcile()
    await sut.http.verifyAllConsumed()
    #expect(sut.client.state.saveError == nil)
    #expect(sut.client.state.unconfirmed == nil)
    #expect(sut.client.state.confirmedPreferences == F.everything)
  }

  @Test func aFailedDeletionProofSendsNothing() async throws {
    let sut = try ClientSUT()
    await sut.expectSettings(F.document(1, F.alerts))
    await sut.client.reconcile()
    sut.session.fail(with: FakeSessionError.signedOut)
    let error = await #expect(throws: NotificationPreferencesError.self) {
      try await sut.client.save(F.off)
    }
    #expect(error?.code == .notSignedIn)
    await sut.http.verifyAllConsumed()
    #expect(await sut.http.requests(to: RouteCatalogue.Push.settings.template.text).count == 1)
  }

  @Test func savingSignedOutThrows() async throws {
    let sut = try ClientSUT()
    sut.session.signOut()
    let error = await #expect(throws: NotificationPreferencesError.self) {
      try await sut.client.enable()
    }
    #expect(error?.code == .notSignedIn)
  }
}

@Suite struct RegistrationRulesTests {
  static let valid = EncryptedRegisterRequest(
    expectedRevision: 1, deviceToken: String(repeating: "ab", count: 32), environment: .sandbox,
    contentKeyID: "11111111-1111-4111-8111-111111111111",
    contentKey: Data(repeating: 7, count: 32).base64EncodedString(),
    deploymentID: "https://monitor.example.com")

  static let rows: [(String, NotificationPreferencesError.Code?, EncryptedRegisterRequest)] = {
    func with(_ change: (inout EncryptedRegisterRequest) -> Void) -> EncryptedRegisterRequest {
      var request = valid
      change(&request)
      return request
    }
    return [
      ("valid", nil, valid),
      ("loopback with port", nil, with { $0.deploymentID = "http://127.0.0.1:8080" }),
      ("uppercase token", .invalidDeviceToken, with { $0.deviceToken = "AB" }),
      ("odd token", .invalidDeviceToken, with { $0.deviceToken = "abc" }),
      (
        "long token", .invalidDeviceToken,
        with { $0.deviceToken = String(repeating: "a", count: 1026) }
      ),
      ("development", .invalidEnvironment, with { $0.environment = "development" }),
      (
        "uppercase key id", .invalidContentKey,
        with {
          $0.contentKeyID = $0.contentKeyID.uppercased().replacingOccurrences(of: "1", with: "A")
        }
      ),
      (
        "key id without hyphens", .invalidContentKey,
        with { $0.contentKeyID = "11111111111141118111111111111111" }
      ),
      (
        "short key", .invalidContentKey,
        with { $0.contentKey = Data(count: 16).base64EncodedString() }
      ),
      (
        "http remote", .invalidDeploymentID, with { $0.deploymentID = "http://monitor.example.com" }
      ),
      (
        "loopback without port", .invalidDeploymentID, with { $0.deploymentID = "http://127.0.0.1" }
      ),
      ("https alone", .invalidDeploymentID, with { $0.deploymentID = "https://" }),
      (
        "too long", .invalidDeploymentID,
        with { $0.deploymentID = "https://a.example/" + String(repeating: "p", count: 500) }
      ),
    ]
  }()

  @Test(arguments: 0..<rows.count)
  func theServersRulesAreCheckedBeforeSending(_ index: Int) {
    let (name, code, request) = Self.rows[index]
    do {
      try RegistrationRules.validate(request)
      #expect(code == nil, "\(name)")
    } catch {
      #expect(error.code == code, "\(name)")
    }
  }
}

@Suite struct LocalRelayDeviceTokenProviderTests {
  @Test func theTokenIsMadeOnceAndKept() async throws {
    let store = InMemoryCredentialStore()
    let first = try await LocalRelayDeviceTokenProvider(store: store).deviceToken()
    let again = try await LocalRelayDeviceTokenProvider(store: store).deviceToken()
    #expect(first == again)
    #expect(first.environment == .sandbox)
    #expect(RegistrationRules.isLowercaseHex(first.hex, evenLengthIn: 64...64))
    #expect(!first.description.contains(first.hex))
  }

  @Test func theEnvironmentIsConfigurable() async throws {
    let provider = LocalRelayDeviceTokenProvider(
      store: InMemoryCredentialStore(), environment: .production,
      randomBytes: { Array(repeating: 0xAB, count: $0) })
    let token = try await provider.deviceToken()
    #expect(
      token == PushDeviceToken(hex: String(repeating: "ab", count: 32), environment: .production))
  }

  @Test func aTokenFromBytesIsLowercaseHex() {
    #expect(PushDeviceToken(bytes: [0x00, 0xFF, 0x1A], environment: .sandbox).hex == "00ff1a")
  }
}
