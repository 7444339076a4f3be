import Foundation
import ServerBeeModels
import ServerBeeRelay
import ServerBeeTestHarness
import Testing

/// The provider side of `POST /v1/send`: each provider answer's verdict, the exact APNs payload
/// and headers, the payload limit and the provider timeout.
@Suite(.timeLimit(.minutes(5)))
struct ProviderTests {
  static let answers: [(ProviderAnswer, PushOutcome, PushDeliveryReason, Bool)] = [
    (.accepted, .accepted, .accepted, false),
    (.unregistered, .permanent, .unregistered, true),
    (.rejected(status: 410, reason: "Unregistered"), .permanent, .unregistered, true),
    (
      .rejected(status: 410, reason: "ExpiredToken"), .permanent, .providerConfigurationOrPayload,
      false
    ),
    (.badDeviceToken, .permanent, .deviceOrEnvironmentMismatch, false),
    (
      .rejected(status: 400, reason: "BadDeviceToken"), .permanent, .deviceOrEnvironmentMismatch,
      false
    ),
    (
      .rejected(status: 400, reason: "BadTopic"), .permanent, .providerConfigurationOrPayload, false
    ),
    (
      .rejected(status: 403, reason: "InvalidProviderToken"), .permanent,
      .providerConfigurationOrPayload, false
    ),
    (.rejected(status: 302, reason: "Found"), .permanent, .providerConfigurationOrPayload, false),
    (.rejected(status: 429, reason: "TooManyRequests"), .retryable, .providerUnavailable, false),
    (.rateLimited, .retryable, .providerUnavailable, false),
    (.serverError(status: 500), .retryable, .providerUnavailable, false),
    (.serverError(status: 503), .retryable, .providerUnavailable, false),
    (.networkFailure, .retryable, .networkUnavailable, false),
    (.malformedReply, .retryable, .networkUnavailable, false),
    (.rejected(status: 200, reason: "Contradictory"), .retryable, .networkUnavailable, false),
  ]

  @Test(arguments: answers.indices)
  func eachProviderAnswerMapsToItsVerdict(_ index: Int) async throws {
    let (answer, outcome, reason, invalid) = Self.answers[index]
    let harness = try await RelayHarness()
    harness.provider.enqueue(answer)
    let reply = try #require(await harness.send(SendBody()))
    #expect(
      reply.isVerdict(200, outcome, reason, deviceInvalid: invalid), "\(answer): \(reply.text)")
    #expect(
      answer.verdict == RelayVerdict(outcome: outcome, reason: reason, deviceInvalid: invalid))
  }

  @Test func onlyUnregisteredMarksTheDeviceInvalid() {
    let invalid = Self.answers.map(\.0).filter { $0.verdict.deviceInvalid }
    #expect(invalid == [.unregistered, .rejected(status: 410, reason: "Unregistered")])
  }

  @Test func theProviderGetsTheExactAPNsPayloadAndHeaders() async throws {
    let harness = try await RelayHarness { $0.topic = "dev.example.bee" }
    let body = SendBody()
    let reply = try #require(await harness.send(body))
    #expect(reply.isVerdict(200, .accepted, .accepted))
    let delivery = try #require(harness.provider.received().first)
    let expected =
      #"{"aps":{"alert":{"title":"ServerBee","body":"Open ServerBee to view this notification."},"#
      + #""mutable-content":1,"sound":"default"},"serverbee_envelope":{"version":1,"#
      + #""key_id":"\#(SendBody.keyID)","identity":"\#(SendBody.identity)","#
      + #""nonce":"\#(SendBody.nonce)","ciphertext":"\#(SendBody.ciphertext)"}}"#
    #expect(delivery.payloadText == expected)
    #expect(
      delivery.headers == [
        "apns-push-type": "alert", "apns-priority": "10",
        "apns-expiration": String(RelayHarness.start + 600), "apns-id": SendBody.eventID,
        "apns-topic": "dev.example.bee",
      ])
    #expect(delivery.body == Data(body.bytes))
    #expect(delivery.clientAddress == "127.0.0.1")
    #expect(delivery.receivedAt == RelayHarness.start)
    #expect(delivery.request.deviceToken == SendBody.token)
    #expect(delivery.request.environment == .sandbox)
  }

  @Test func theEnvelopeKeysAreWrittenInContractOrderWhateverOrderTheyCameIn() async throws {
    let harness = try await RelayHarness()
    var body = SendBody()
    body.envelope.reverse()
    body.members.reverse()
    #expect(try #require(await harness.send(body)).status == 200)
    let payload = try #require(harness.provider.received().first?.payloadText)
    let keys = ["\"version\"", "\"key_id\"", "\"identity\"", "\"nonce\"", "\"ciphertext\""]
    let offsets = keys.compactMap { payload.range(of: $0)?.lowerBound }
    #expect(offsets.count == 5)
    #expect(offsets == offsets.sorted())
  }

  @Test func aPayloadOverTheLimitIsPayloadTooLargeWithoutContactingTheProvider() async throws {
    let harness = try await RelayHarness { $0.maximumPayloadSize = 300 }
    let reply = try #require(await harness.send(SendBody()))
    #expect(reply.isVerdict(200, .permanent, .payloadTooLarge))
    #expect(harness.provider.received().isEmpty)
  }

  @Test func theLargestValidRequestFitsTheDefaultPayloadLimit() async throws {
    let harness = try await RelayHarness()
    let body = SendBody(token: String(repeating: "ab", count: 512)).settingEnvelope(
      "ciphertext", .string(Data(repeating: 1, count: 2070).base64EncodedString()))
    let reply = try #require(await harness.send(body))
    #expect(reply.isVerdict(200, .accepted, .accepted))
    #expect(try #require(harness.provider.received().first).payload.count <= 4096)
  }

  @Test func aProviderSlowerThanTheTimeoutIsNetworkUnavailable() async throws {
    let harness = try await RelayHarness { $0.providerTimeout = .milliseconds(200) }
    harness.provider.enqueue(.delayed(.accepted, by: .seconds(30)))
    let reply = try #require(await harness.send(SendBody()))
    #expect(reply.isVerdict(200, .retryable, .networkUnavailable))
  }

  @Test func aHeldAnswerPastTheTimeoutIsNetworkUnavailableAndReleased() async throws {
    let harness = try await RelayHarness { $0.providerTimeout = .milliseconds(200) }
    harness.provider.enqueue(.held(.accepted))
    let reply = try #require(await harness.send(SendBody()))
    #expect(reply.isVerdict(200, .retryable, .networkUnavailable))
    #expect(harness.provider.heldCount == 0)
  }

  @Test func perTokenScriptsWinOverTheQueueAndTheQueueIsConsumedInOrder() async throws {
    let harness = try await RelayHarness()
    harness.provider.script(deviceToken: "dd", .unregistered)
    harness.provider.enqueue(.serverError(status: 502), .badDeviceToken)
    let scripted = try #require(await harness.send(SendBody(token: "dd")))
    #expect(scripted.isVerdict(200, .permanent, .unregistered, deviceInvalid: true))
    let first = try #require(await harness.send(SendBody(token: "01")))
    #expect(first.isVerdict(200, .retryable, .providerUnavailable))
    let second = try #require(await harness.send(SendBody(token: "02")))
    #expect(second.isVerdict(200, .permanent, .deviceOrEnvironmentMismatch))
    let rest = try #require(await harness.send(SendBody(token: "03")))
    #expect(rest.isVerdict(200, .accepted, .accepted))
    #expect(harness.provider.received().map(\.deviceToken) == ["dd", "01", "02", "03"])
    harness.provider.clearReceived()
    #expect(harness.provider.received().isEmpty)
  }

  @Test func theRelayNeverRetriesOrDeduplicates() async throws {
    let harness = try await RelayHarness()
    harness.provider.enqueue(.serverError(status: 503))
    #expect(try #require(await harness.send(SendBody())).verdict?.outcome == .retryable)
    #expect(try #require(await harness.send(SendBody())).verdict?.outcome == .accepted)
    #expect(harness.provider.received().count == 2)
  }
}

/// The scripted provider keeps its deliveries in a bounded ring.
@Suite struct ScriptedPushProviderRingTests {
  static func delivery(_ index: Int) -> RelayDelivery {
    let request = RelaySendRequest(
      deviceToken: String(format: "%04x", index), environment: .sandbox,
      eventID: SendBody.eventID, expiresAt: RelayHarness.start + 600,
      envelope: PushEnvelope(
        version: 1, keyID: SendBody.keyID, identity: SendBody.identity, nonce: SendBody.nonce,
        ciphertext: SendBody.ciphertext))
    return RelayDelivery(
      request: request, topic: "app.serverbee", body: Data(), clientAddress: "127.0.0.1",
      receivedAt: RelayHarness.start)
  }

  @Test func receivedKeepsTheNewestDeliveriesOnly() async {
    let provider = ScriptedPushProvider(maximumReceived: 3)
    for index in 0..<5 { _ = await provider.deliver(Self.delivery(index)) }
    #expect(provider.received().map(\.deviceToken) == ["0002", "0003", "0004"])
    await provider.waitUntilReceived(count: 5)
    provider.clearReceived()
    #expect(provider.received().isEmpty)
    _ = await provider.deliver(Self.delivery(5))
    #expect(provider.received().map(\.deviceToken) == ["0005"])
  }

  @Test func aCapOfZeroKeepsNothingButStillCounts() async {
    let provider = ScriptedPushProvider(maximumReceived: 0)
    for index in 0..<3 { _ = await provider.deliver(Self.delivery(index)) }
    #expect(provider.received().isEmpty)
    await provider.waitUntilReceived(count: 3)
    #expect(ScriptedPushProvider().maximumReceived == 1000)
  }
}
