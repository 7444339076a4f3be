import Foundation
import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import NotificationPreferences

/// The legacy direct-APNs registration, used only where the protocol allows it (Protocol/Push.md
/// §2.8): on a server without encrypted push, never on one that has it.
@Suite(.timeLimit(.minutes(5))) struct LegacyPushRegistrationTests {
  let http = StubHTTPTransport()
  let session = FakeSessionContext()

  func registration(tokens: any PushDeviceTokenProvider = FixedDeviceTokenProvider())
    throws -> LegacyPushRegistration
  {
    session.signIn(try FakeSessionContext.identity(user: "ada"))
    return LegacyPushRegistration(transport: http, session: session, deviceTokens: tokens)
  }

  @Test func aServerWithoutEncryptedPushGetsTheRawToken() async throws {
    let legacy = try registration()
    await http.expect(.get, RouteCatalogue.Push.settings.template.text, reply: .json(404, ""))
    await http.expect(
      .post, RouteCatalogue.Push.legacyRegister.template.text, reply: .json(200, #"{"data":"ok"}"#))
    #expect(try await legacy.registerIfServerLacksEncryptedPush() == .registered)
    let sent = try #require(
      await http.requests(to: RouteCatalogue.Push.legacyRegister.template.text).first)
    #expect(
      String(decoding: sent.body, as: UTF8.self)
        == #"{"device_token":"\#(String(repeating: "ab", count: 32))"}"#)
    await http.verifyAllConsumed()
  }

  @Test func aServerWithEncryptedPushNeverGetsTheLegacyRoute() async throws {
    let asked = Locked(0)
    struct CountingTokens: PushDeviceTokenProvider {
      let asked: Locked<Int>
      func deviceToken() async throws -> PushDeviceToken {
        asked.withLock { $0 += 1 }
        return Fixture.token
      }
    }
    let legacy = try registration(tokens: CountingTokens(asked: asked))
    await http.expect(
      .get, RouteCatalogue.Push.settings.template.text, reply: ClientSUT.reply(Fixture.document(3)))
    #expect(try await legacy.registerIfServerLacksEncryptedPush() == .encryptedPushAvailable)
    #expect(asked.withLock { $0 } == 0)
    await http.verifyAllConsumed()
  }

  @Test func aMigratedInstallationIsAConflictInASentence() async throws {
    let legacy = try registration()
    await http.expect(.get, RouteCatalogue.Push.settings.template.text, reply: .json(404, ""))
    await http.expect(
      .post, RouteCatalogue.Push.legacyRegister.template.text,
      reply: .json(
        409,
        #"{"error":{"code":"CONFLICT","message":"Conflict: This installation uses encrypted relay delivery"}}"#
      ))
    let error = await #expect(throws: NotificationPreferencesError.self) {
      try await legacy.registerIfServerLacksEncryptedPush()
    }
    #expect(error?.code == .conflict)
    #expect(error?.httpStatus == 409)
    #expect(error?.message.contains("never used again") == true)
  }

  @Test func withoutASessionNothingIsSent() async throws {
    let legacy = LegacyPushRegistration(
      transport: http, session: session, deviceTokens: FixedDeviceTokenProvider())
    let error = await #expect(throws: NotificationPreferencesError.self) {
      try await legacy.registerIfServerLacksEncryptedPush()
    }
    #expect(error?.code == .notSignedIn)
    #expect(await http.requests(to: RouteCatalogue.Push.settings.template.text).isEmpty)
  }

  @Test func noPlatformTokenIsATypedError() async throws {
    struct NoToken: PushDeviceTokenProvider {
      struct Failure: Error {}
      func deviceToken() async throws -> PushDeviceToken { throw Failure() }
    }
    let legacy = try registration(tokens: NoToken())
    await http.expect(.get, RouteCatalogue.Push.settings.template.text, reply: .json(404, ""))
    let error = await #expect(throws: NotificationPreferencesError.self) {
      try await legacy.registerIfServerLacksEncryptedPush()
    }
    #expect(error?.code == .deviceTokenUnavailable)
    await http.verifyAllConsumed()
  }
}
