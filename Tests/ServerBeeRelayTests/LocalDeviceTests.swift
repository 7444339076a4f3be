import Foundation
import ServerBeeModels
import ServerBeeRelay
import ServerBeeTestHarness
import Testing

/// ``LocalDevicePushProvider`` behind the relay: a device subscribes to `/v1/devices/stream`
/// and receives the exact APNs payload.
@Suite(.timeLimit(.minutes(5)))
struct LocalDeviceTests {
  let devices: LocalDevicePushProvider
  let harness: RelayHarness

  init() async throws {
    devices = LocalDevicePushProvider(clock: RelayClock(now: { RelayHarness.start }))
    harness = try await RelayHarness(fallback: devices)
  }

  @Test func anOnlineDeviceGetsTheExactPayloadAsOneTextMessage() async throws {
    let device = try #require(RelayClient(port: harness.port))
    #expect(try #require(await device.subscribe(token: SendBody.token)).status == 101)
    let reply = try #require(await harness.send(SendBody()))
    #expect(reply.isVerdict(200, .accepted, .accepted))
    let expected = try #require(harness.provider.received().first?.payloadText)
    #expect(await device.text() == expected)
    #expect(devices.devices().first?.isOnline == true)
  }

  @Test func anOfflineDeviceGetsEveryHeldPayloadInOrderOnItsNextSubscribe() async throws {
    devices.register(deviceToken: SendBody.token)
    var older = SendBody()
    older.envelope[1] = ("key_id", .string("11111111-1111-4111-8111-111111111111"))
    #expect(try #require(await harness.send(older)).isVerdict(200, .accepted, .accepted))
    #expect(try #require(await harness.send(SendBody())).isVerdict(200, .accepted, .accepted))
    #expect(devices.devices().first?.pendingCount == 2)
    let device = try #require(RelayClient(port: harness.port))
    #expect(try #require(await device.subscribe(token: SendBody.token)).status == 101)
    #expect(try #require(await device.text()).contains("11111111-1111-4111-8111-111111111111"))
    #expect(try #require(await device.text()).contains(SendBody.keyID))
    #expect(await device.text(timeout: 0.3) == nil)
    #expect(devices.devices().first?.pendingCount == 0)
  }

  @Test func aProvisionedTokenIsAcceptedWhileOfflineAndDeliveredOnConnect() async throws {
    let reply = try #require(await harness.send([], path: "/v1/devices", headers: []))
    #expect(reply.status == 201)
    #expect(reply.headers["content-type"] == "application/json")
    #expect(reply.headers["cache-control"] == "no-store")
    let answer = try WireJSON.decode(JSONValue.self, from: Data(reply.body))
    let token = try #require(answer["device_token"]?.stringValue)
    #expect(answer["environment"]?.stringValue == "sandbox")
    #expect(token.utf8.count == 64)
    #expect(token.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) })
    #expect(devices.devices().map(\.isOnline) == [false])

    var first = SendBody(token: token)
    first.envelope[1] = ("key_id", .string("11111111-1111-4111-8111-111111111111"))
    #expect(try #require(await harness.send(first)).isVerdict(200, .accepted, .accepted))
    #expect(
      try #require(await harness.send(SendBody(token: token))).isVerdict(200, .accepted, .accepted))

    let device = try #require(RelayClient(port: harness.port))
    #expect(try #require(await device.subscribe(token: token)).status == 101)
    #expect(try #require(await device.text()).contains("11111111-1111-4111-8111-111111111111"))
    #expect(try #require(await device.text()).contains(SendBody.keyID))
    #expect(devices.devices().first?.isOnline == true)
  }

  @Test func aProvisionedTokenBelongsToTheEnvironmentItWasIssuedFor() async throws {
    let reply = try #require(
      await harness.send(
        [], path: "/v1/devices", headers: [("X-ServerBee-Environment", "production")]))
    #expect(reply.status == 201)
    let answer = try WireJSON.decode(JSONValue.self, from: Data(reply.body))
    #expect(answer["environment"]?.stringValue == "production")
    let token = try #require(answer["device_token"]?.stringValue)
    let sandbox = try #require(await harness.send(SendBody(token: token)))
    #expect(sandbox.isVerdict(200, .permanent, .deviceOrEnvironmentMismatch))
    let production = try #require(
      await harness.send(SendBody(token: token, environment: "production")))
    #expect(production.isVerdict(200, .accepted, .accepted))
  }

  @Test(arguments: ["development", ""])
  func provisioningInAnUnknownEnvironmentIsInvalid(_ environment: String) async throws {
    let reply = try #require(
      await harness.send(
        [], path: "/v1/devices", headers: [("X-ServerBee-Environment", environment)]))
    #expect(reply.isVerdict(400, .permanent, .invalidRequest))
    #expect(devices.devices().isEmpty)
  }

  @Test func provisioningOnlyAcceptsPost() async throws {
    let reply = try #require(await harness.send([], method: "GET", path: "/v1/devices"))
    #expect(reply.isVerdict(405, .permanent, .methodNotAllowed))
    #expect(reply.headers["allow"] == "POST")
  }

  @Test func theDeviceCapRefusesNewTokensWith503AndAJSONReason() async throws {
    let devices = LocalDevicePushProvider(
      clock: RelayClock(now: { RelayHarness.start }), limits: .init(maximumDevices: 2))
    let harness = try await RelayHarness(fallback: devices)
    for _ in 0..<2 {
      #expect(try #require(await harness.send([], path: "/v1/devices", headers: [])).status == 201)
    }
    let full = try #require(await harness.send([], path: "/v1/devices", headers: []))
    #expect(full.isVerdict(503, .retryable, "DeviceLimitReached"), "\(full.text)")
    #expect(full.headers["retry-after"] == "60")
    let subscriber = try #require(RelayClient(port: harness.port))
    #expect(try #require(await subscriber.subscribe(token: SendBody.token)).status == 503)
    #expect(devices.devices().count == 2)
    #expect(throws: ServerBeeRelayError.self) { try devices.provision() }
  }

  @Test func provisioningIsRateLimitedPerClient() async throws {
    let harness = try await RelayHarness(fallback: devices) { configuration in
      configuration.limits.requestsPerClient = 2
    }
    for _ in 0..<2 {
      #expect(try #require(await harness.send([], path: "/v1/devices", headers: [])).status == 201)
    }
    let limited = try #require(await harness.send([], path: "/v1/devices", headers: []))
    #expect(limited.isVerdict(429, .retryable, .rateLimited))
  }

  @Test func theQueueOfAnOfflineDeviceKeepsTheNewestUpToItsBound() async throws {
    let devices = LocalDevicePushProvider(
      clock: RelayClock(now: { RelayHarness.start }), limits: .init(maximumPendingPerDevice: 3))
    let token = try devices.provision()
    for number in 1...5 {
      #expect(await devices.deliver(Self.delivery(token: token, number: number)) == .accepted)
    }
    #expect(devices.devices().first?.pendingCount == 3)
    let harness = try await RelayHarness(fallback: devices)
    let device = try #require(RelayClient(port: harness.port))
    #expect(try #require(await device.subscribe(token: token)).status == 101)
    for number in 3...5 {
      #expect(try #require(await device.text()).contains(Self.keyID(number)))
    }
    #expect(await device.text(timeout: 0.3) == nil)
  }

  @Test func expiredHeldPayloadsAreDroppedAndTheRestDelivered() async throws {
    let time = Locked<Int64>(RelayHarness.start)
    let devices = LocalDevicePushProvider(clock: RelayClock(now: { time.withLock { $0 } }))
    let token = try devices.provision()
    #expect(
      await devices.deliver(Self.delivery(token: token, number: 1, expiresIn: 10)) == .accepted)
    #expect(
      await devices.deliver(Self.delivery(token: token, number: 2, expiresIn: 600)) == .accepted)
    time.withLock { $0 += 10 }
    let harness = try await RelayHarness(fallback: devices)
    let device = try #require(RelayClient(port: harness.port))
    #expect(try #require(await device.subscribe(token: token)).status == 101)
    #expect(try #require(await device.text()).contains(Self.keyID(2)))
    #expect(await device.text(timeout: 0.3) == nil)
  }

  @Test func aTokenNeitherProvisionedNorSubscribedStaysBadDeviceToken() async throws {
    _ = try devices.provision()
    let reply = try #require(await harness.send(SendBody()))
    #expect(reply.isVerdict(200, .permanent, .deviceOrEnvironmentMismatch))
    #expect(devices.devices().count == 1)
  }

  /// A delivery straight to the provider, its event id numbered.
  static func delivery(token: String, number: Int, expiresIn: Int64 = 600) -> RelayDelivery {
    let envelope = PushEnvelope(
      version: 1, keyID: keyID(number), identity: SendBody.identity, nonce: SendBody.nonce,
      ciphertext: SendBody.ciphertext)
    let request = RelaySendRequest(
      deviceToken: token, environment: .sandbox, eventID: SendBody.eventID,
      expiresAt: RelayHarness.start + expiresIn, envelope: envelope)
    return RelayDelivery(request: request, topic: "app.serverbee")
  }

  /// A key id that tells the numbered payloads apart (the payload holds the envelope only).
  static func keyID(_ number: Int) -> String {
    "0f8e3a52-5c1b-4d8e-9a7f-\(String(repeating: "0", count: 12 - String(number).count))\(number)"
  }

  @Test func anExpiredPendingPayloadIsDropped() async throws {
    let time = Locked<Int64>(RelayHarness.start)
    let devices = LocalDevicePushProvider(clock: RelayClock(now: { time.withLock { $0 } }))
    let harness = try await RelayHarness(fallback: devices)
    devices.register(deviceToken: SendBody.token)
    let reply = try #require(await harness.send(SendBody(expiresAt: RelayHarness.start + 10)))
    #expect(reply.isVerdict(200, .accepted, .accepted))
    time.withLock { $0 += 10 }
    let device = try #require(RelayClient(port: harness.port))
    #expect(try #require(await device.subscribe(token: SendBody.token)).status == 101)
    #expect(await device.text(timeout: 0.3) == nil)
  }

  @Test func anUnknownTokenOrEnvironmentIsDeviceOrEnvironmentMismatch() async throws {
    let unknown = try #require(await harness.send(SendBody(token: "0123")))
    #expect(unknown.isVerdict(200, .permanent, .deviceOrEnvironmentMismatch))
    devices.register(deviceToken: SendBody.token, environment: .production)
    let mismatch = try #require(await harness.send(SendBody(environment: "sandbox")))
    #expect(mismatch.isVerdict(200, .permanent, .deviceOrEnvironmentMismatch))
  }

  @Test func anUnregisteredDeviceIsUnregisteredWithDeviceInvalid() async throws {
    let device = try #require(RelayClient(port: harness.port))
    #expect(try #require(await device.subscribe(token: SendBody.token)).status == 101)
    let header = [("X-ServerBee-Device-Token", SendBody.token)]
    let deleted = try #require(
      await harness.send(
        [], method: "DELETE", path: "/v1/devices/\(SendBody.token)", headers: header))
    #expect(deleted.status == 204)
    let reply = try #require(await harness.send(SendBody()))
    #expect(reply.isVerdict(200, .permanent, .unregistered, deviceInvalid: true))
    #expect(devices.devices().first?.isRegistered == false)
  }

  @Test func unregisteringNeedsTheSameTokenInTheHeader() async throws {
    let reply = try #require(
      await harness.send(
        [], method: "DELETE", path: "/v1/devices/\(SendBody.token)",
        headers: [("X-ServerBee-Device-Token", "ff")]))
    #expect(reply.status == 400)
  }

  @Test(arguments: [nil, "ABCD", "abc", ""] as [String?])
  func aStreamWithoutAValidTokenIsRefused(_ token: String?) async throws {
    let device = try #require(RelayClient(port: harness.port))
    #expect(try #require(await device.subscribe(token: token)).status == 400)
  }

  @Test func aStreamWithAnUnknownEnvironmentIsRefused() async throws {
    let device = try #require(RelayClient(port: harness.port))
    #expect(
      try #require(await device.subscribe(token: "abcd", environment: "development")).status
        == 400)
  }

  @Test func stoppingTheRelayClosesDeviceStreamsWithGoingAway() async throws {
    let device = try #require(RelayClient(port: harness.port))
    #expect(try #require(await device.subscribe(token: SendBody.token)).status == 101)
    harness.relay.stop()
    let (opcode, payload) = try #require(await device.frame())
    #expect(opcode == 8)
    #expect(payload.prefix(2) == [0x03, 0xE9])
  }
}
