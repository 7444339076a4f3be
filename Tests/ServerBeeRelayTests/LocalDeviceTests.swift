import Foundation
import ServerBeeModels
import ServerBeeRelay
import ServerBeeTestSupport
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

  @Test func anOfflineDeviceKeepsOnlyTheNewestPayload() async throws {
    devices.register(deviceToken: SendBody.token)
    var older = SendBody()
    older.envelope[1] = ("key_id", .string("11111111-1111-4111-8111-111111111111"))
    #expect(try #require(await harness.send(older)).isVerdict(200, .accepted, .accepted))
    #expect(try #require(await harness.send(SendBody())).isVerdict(200, .accepted, .accepted))
    #expect(devices.devices().first?.hasPending == true)
    let device = try #require(RelayClient(port: harness.port))
    #expect(try #require(await device.subscribe(token: SendBody.token)).status == 101)
    let text = try #require(await device.text())
    #expect(text.contains(SendBody.keyID))
    #expect(await device.text(timeout: 0.3) == nil)
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
