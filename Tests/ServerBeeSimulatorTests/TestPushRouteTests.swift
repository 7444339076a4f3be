import Foundation
import PushEnvelopeCrypto
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// `POST /api/mobile/push/test` and `GET /api/mobile/push/test/{event_id}` (Protocol/Push.md §2.6):
/// admission, the check order, idempotent retries per event and installation, and the sealed
/// content.
@Suite(.timeLimit(.minutes(5))) struct TestPushRouteTests {
  static let eventID = "11111111-1111-4111-8111-111111111111"

  func harness() throws -> Harness {
    try Harness {
      $0.relayURL = Harness.relayPlaceholder
      $0.accessTTL = 7200  // status reads after 30 minutes without a refresh
    }
  }

  @Test func aNewTestIsQueuedPendingAndSealedForThisInstallation() async throws {
    let h = try harness()
    let device = try await h.pushDevice("admin")
    let reply = await h.sendTest(device.tokens.access, eventID: Self.eventID, revision: 2)
    #expect(reply.status == 200)
    #expect(
      reply.text
        == #"{"data":{"event_id":"11111111-1111-4111-8111-111111111111","outcome":"pending","#
        + #""reason":"Queued","presentation":"unobserved"}}"#)
    let envelope = try #require(
      try h.storedEnvelope(eventID: Self.eventID, installation: "INST-1"))
    let opened = try device.open(envelope, at: h.clock.now)
    let now = Int64(h.clock.now.timeIntervalSince1970)
    #expect(
      opened.content
        == PushContent(
          kind: .test, deploymentID: Harness.deployment, userID: device.tokens.userID,
          installationID: "INST-1", eventID: Self.eventID, createdAt: now, expiresAt: now + 1800))
    let tap = try PushEnvelopeOpener(now: { h.clock.now }).open(
      envelope, with: device.key, for: .tap)
    #expect(tap.content.eventID == Self.eventID)
  }

  @Test func theEventIDIsNormalisedToLowercase() async throws {
    let h = try harness()
    let device = try await h.pushDevice("admin")
    let mixed = "AAAAAAAA-bbbb-4CCC-8ddd-EEEEEEEEEEEE"
    let reply = await h.sendTest(device.tokens.access, eventID: mixed, revision: 2)
    #expect(reply.data?["event_id"]?.stringValue == mixed.lowercased())
    #expect(await h.testStatus(device.tokens.access, eventID: mixed.lowercased()).status == 200)
    let upper = await h.testStatus(device.tokens.access, eventID: mixed)
    #expect(upper.status == 404, "the path value is matched as sent")
  }

  @Test func aNonUUIDIs422FirstEvenWithoutARegistration() async throws {
    let h = try harness()
    await h.user("admin")
    let t = try #require(await h.login("admin").1)
    let reply = await h.sendTest(t.access, eventID: "not-a-uuid", revision: 99)
    #expect(reply.status == 422 && reply.message == "Validation error: Invalid test event UUID")
  }

  @Test func newTestChecksRunInTheContractOrder() async throws {
    let h = try harness()
    await h.user("admin")
    let t = try #require(await h.login("admin").1)
    let none = await h.sendTest(t.access, eventID: Self.eventID, revision: 0)
    #expect(none.status == 403 && none.message == "Forbidden: Enable notifications first")
    _ = await h.putSettings(t.access, revision: 0, h.preferencesJSON())
    let stale = await h.sendTest(t.access, eventID: Self.eventID, revision: 0)
    #expect(stale.status == 409)
    #expect(stale.message == "Conflict: Notification settings changed; reload before saving")
    let unregistered = await h.sendTest(t.access, eventID: Self.eventID, revision: 1)
    #expect(unregistered.status == 403)
    #expect(unregistered.message == "Forbidden: Retry notification setup first")
  }

  @Test func withoutARelayANewTestIsRefused() async throws {
    let h = try harness()
    let device = try await h.pushDevice("admin")
    h.simulator.setRelayURL(nil)
    let reply = await h.sendTest(device.tokens.access, eventID: Self.eventID, revision: 2)
    #expect(reply.status == 403 && reply.message == "Forbidden: Retry notification setup first")
  }

  @Test func aRetryWithTheSameIDReturnsTheCurrentStatusWithoutASecondJob() async throws {
    let h = try harness()
    let device = try await h.pushDevice("admin")
    _ = await h.sendTest(device.tokens.access, eventID: Self.eventID, revision: 2)
    h.clock.advance(by: 5)
    let again = await h.sendTest(device.tokens.access, eventID: Self.eventID, revision: 2)
    #expect(again.status == 200 && again.data?["outcome"]?.stringValue == "pending")
    #expect(await h.outbox().count == 1)
    let other = await h.sendTest(device.tokens.access, eventID: Self.eventID, revision: 3)
    #expect(other.status == 409)
    #expect(other.message == "Conflict: Test identity already used with another revision")
  }

  @Test func anotherLoginCannotReuseOrReadThisInstallationsTest() async throws {
    let h = try harness()
    let device = try await h.pushDevice("admin")
    _ = await h.sendTest(device.tokens.access, eventID: Self.eventID, revision: 2)
    let second = try #require(await h.login("admin").1)
    let reuse = await h.sendTest(second.access, eventID: Self.eventID, revision: 2)
    #expect(reuse.status == 403 && reuse.message == "Forbidden: This test belongs to another login")
    let read = await h.testStatus(second.access, eventID: Self.eventID)
    #expect(read.status == 404 && read.message == "Not found: Test notification unavailable")
  }

  @Test func anotherInstallationMayUseTheSameEventID() async throws {
    let h = try harness()
    let first = try await h.pushDevice("admin", installation: "INST-1", seed: 1)
    let second = try await h.pushDevice("admin", installation: "INST-2", seed: 2)
    #expect(await h.sendTest(first.tokens.access, eventID: Self.eventID, revision: 2).status == 200)
    #expect(
      await h.sendTest(second.tokens.access, eventID: Self.eventID, revision: 2).status == 200)
    #expect(await h.outbox().count == 2)
  }

  @Test func anUnknownTestIs404() async throws {
    let h = try harness()
    let device = try await h.pushDevice("admin")
    let reply = await h.testStatus(device.tokens.access, eventID: Self.eventID)
    #expect(reply.status == 404 && reply.message == "Not found: Test notification unavailable")
  }

  @Test func aPendingTestReadsAsExpiredAtExactlyThirtyMinutes() async throws {
    let h = try harness()
    let device = try await h.pushDevice("admin")
    _ = await h.sendTest(device.tokens.access, eventID: Self.eventID, revision: 2)
    h.clock.advance(by: 1799)
    let before = await h.testStatus(device.tokens.access, eventID: Self.eventID)
    #expect(before.data?["outcome"]?.stringValue == "pending")
    h.clock.advance(by: 1)
    let after = await h.testStatus(device.tokens.access, eventID: Self.eventID)
    #expect(after.data?["outcome"]?.stringValue == "expired")
    #expect(after.data?["reason"]?.stringValue == "Expired")
  }
}
