import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeRelay
import ServerBeeSocketTransport
import ServerBeeTestHarness
import ServerBeeTransport
import Testing

@testable import NotificationPreferences

/// ``LocalRelayDeviceStream`` and ``LocalRelayDeviceTokenProvider`` against a real
/// `RelayServer` on 127.0.0.1: a token issued over HTTP, pushes over the socket transport, and
/// a relay that stops and comes back on the same port.
@Suite(.timeLimit(.minutes(2)))
struct LocalRelayDeviceStreamRelayTests {
  /// Quick retries, so the test waits for the relay rather than for the backoff.
  static let configuration = LocalRelayDeviceStream.Configuration(
    initialBackoff: .milliseconds(50), maximumBackoff: .milliseconds(200))

  @Test func theStreamReconnectsAcrossARelayRestartAndGetsWhatWasHeldMeanwhile() async throws {
    let devices = LocalDevicePushProvider()
    let relay = RelayServer(provider: devices)
    let url = try await Task(priority: .high) { try relay.start() }.value
    defer { relay.stop() }
    let port = UInt16(try #require(url.port))
    let token = try await LocalRelayDeviceTokenProvider(
      store: InMemoryCredentialStore(), relay: url, transport: SocketHTTPTransport()
    ).deviceToken()
    #expect(devices.devices().map(\.isOnline) == [false])  // issued, known, offline

    let stream = LocalRelayDeviceStream(
      relay: url, deviceToken: token, transport: SocketWebSocketTransport(),
      configuration: Self.configuration)
    var events = stream.events().makeAsyncIterator()
    #expect(try await events.next() == .connected)
    #expect(await devices.deliver(Self.delivery(token.hex, number: 1)) == .accepted)
    #expect(try await events.next() == .push(Self.delivery(token.hex, number: 1).payload))

    relay.stop()
    let reason = try await Self.nextReconnect(&events)
    #expect(!reason.isEmpty)
    try await Self.waitUntil { !devices.devices().contains(where: \.isOnline) }
    // Held while the device is away, in order.
    #expect(await devices.deliver(Self.delivery(token.hex, number: 2)) == .accepted)
    #expect(await devices.deliver(Self.delivery(token.hex, number: 3)) == .accepted)
    _ = try await Task(priority: .high) { try relay.start(port: port) }.value

    #expect(try await Self.nextConnected(&events))
    #expect(try await events.next() == .push(Self.delivery(token.hex, number: 2).payload))
    #expect(try await events.next() == .push(Self.delivery(token.hex, number: 3).payload))
    stream.stop()
  }

  @Test func aNewRelayOnTheSamePortLearnsTheDeviceFromItsReconnect() async throws {
    let first = RelayServer(provider: LocalDevicePushProvider())
    let url = try await Task(priority: .high) { try first.start() }.value
    let port = UInt16(try #require(url.port))
    let token = try await LocalRelayDeviceTokenProvider(
      store: InMemoryCredentialStore(), relay: url, transport: SocketHTTPTransport()
    ).deviceToken()
    let stream = LocalRelayDeviceStream(
      relay: url, deviceToken: token, transport: SocketWebSocketTransport(),
      configuration: Self.configuration)
    var events = stream.events().makeAsyncIterator()
    #expect(try await events.next() == .connected)
    first.stop()
    _ = try await Self.nextReconnect(&events)

    let devices = LocalDevicePushProvider()
    let second = RelayServer(provider: devices)
    _ = try await Task(priority: .high) { try second.start(port: port) }.value
    defer { second.stop() }
    #expect(try await Self.nextConnected(&events))
    #expect(devices.devices().map(\.deviceToken) == [token.hex])
    #expect(await devices.deliver(Self.delivery(token.hex, number: 4)) == .accepted)
    #expect(try await events.next() == .push(Self.delivery(token.hex, number: 4).payload))
    stream.stop()
  }

  @Test func unregisteringAtTheRelayEndsTheStreamWithATypedError() async throws {
    let devices = LocalDevicePushProvider()
    let relay = RelayServer(provider: devices)
    let url = try await Task(priority: .high) { try relay.start() }.value
    defer { relay.stop() }
    let token = try await LocalRelayDeviceTokenProvider(
      store: InMemoryCredentialStore(), relay: url, transport: SocketHTTPTransport()
    ).deviceToken()
    let stream = LocalRelayDeviceStream(
      relay: url, deviceToken: token, transport: SocketWebSocketTransport(),
      configuration: Self.configuration)
    var events = stream.events().makeAsyncIterator()
    #expect(try await events.next() == .connected)
    let deleted = try await SocketHTTPTransport().send(
      HTTPRequest(
        method: .delete, url: url.appendingPathComponent("v1/devices/\(token.hex)"),
        headers: ["x-serverbee-device-token": token.hex]))
    #expect(deleted.status == 204)
    let error = await #expect(throws: NotificationPreferencesError.self) {
      while try await events.next() != nil {}
    }
    #expect(error?.code == .deviceUnregistered)
  }

  /// Skips to the next `reconnecting` event and returns its reason.
  static func nextReconnect(
    _ events: inout AsyncThrowingStream<LocalRelayDeviceStream.Event, any Error>.Iterator
  ) async throws -> String {
    while let event = try await events.next() {
      if case .reconnecting(_, let reason) = event { return reason }
    }
    throw PeerError("the stream ended before reconnecting")
  }

  /// Skips reconnect attempts until the stream is connected again.
  static func nextConnected(
    _ events: inout AsyncThrowingStream<LocalRelayDeviceStream.Event, any Error>.Iterator
  ) async throws -> Bool {
    while let event = try await events.next() {
      switch event {
      case .connected: return true
      case .reconnecting: continue
      case .push: return false
      }
    }
    return false
  }

  /// Waits (bounded) for the relay to notice a closed stream.
  static func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now.advanced(by: .seconds(10))
    while !condition() {
      guard ContinuousClock.now < deadline else { throw PeerError("condition not met in 10 s") }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  static func delivery(_ token: String, number: Int) -> RelayDelivery {
    let envelope = PushEnvelope(
      keyID: "6b1f9c2e-3d4a-4b5c-8d6e-00000000000\(number)",
      identity: String(repeating: "40", count: 32),
      nonce: Data((1...12).map { UInt8($0) }).base64EncodedString(),
      ciphertext: Data((0..<48).map { UInt8($0) }).base64EncodedString())
    let request = RelaySendRequest(
      deviceToken: token, environment: .sandbox,
      eventID: "0f8e3a52-5c1b-4d8e-9a7f-2b6c4d8e1f3\(number)",
      expiresAt: Int64(Date().timeIntervalSince1970) + 600, envelope: envelope)
    return RelayDelivery(request: request, topic: "app.serverbee")
  }
}
