import Foundation
import PushEnvelopeCrypto
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import NotificationPreferences

/// ``LocalRelayDeviceListener`` over a fake transport: which device it listens with, pushes
/// opened with the current login's key and shown once, and a device the relay unregistered.
@Suite(.timeLimit(.minutes(5)))
struct LocalRelayDeviceListenerTests {
  static let device = LocalRelayDevice(
    deviceToken: String(repeating: "7e", count: 32), environment: .sandbox,
    relayURL: URL(string: "http://127.0.0.1:8787"))

  /// A listener for `store` with the extension step's fixed clock.
  static func listener(_ store: any CredentialStore, _ transport: FakeWebSocketTransport)
    throws -> LocalRelayDeviceListener
  {
    let relay = try #require(device.relayURL)
    return LocalRelayDeviceListener(
      relayURL: relay, deviceToken: device.pushDeviceToken, store: store,
      step: NotificationExtensionStep(
        store: store, language: .english, opener: NotificationExtensionStepTests.opener),
      stream: LocalRelayDeviceStream(
        relay: relay, deviceToken: device.pushDeviceToken, transport: transport))
  }

  @Test func eachEventOpensOnceAndAPushThatDoesNotOpenSaysWhy() async throws {
    let (store, payload) = try NotificationExtensionStepTests.stored(scope: "self")
    let transport = FakeWebSocketTransport()
    let listener = try Self.listener(store, transport)
    var events = listener.events().makeAsyncIterator()
    var peers = transport.peers.makeAsyncIterator()
    #expect(try await events.next() == .connected)
    let peer = try #require(await peers.next())
    let text = String(decoding: payload, as: UTF8.self)
    peer.send(text)
    peer.send(text)  // the server's retry after an ambiguous failure
    peer.send(#"{"aps":{},"serverbee_envelope":{"version":1}}"#)
    guard case .push(let opened) = try await events.next() else {
      Issue.record("expected a push")
      return
    }
    #expect(opened.payload == payload && opened.content?.content.kind == .test)
    #expect(opened.failure == nil && !opened.notification.isFallback)
    guard case .push(let unopened) = try await events.next() else {
      Issue.record("expected the second push")
      return
    }
    #expect(unopened.content == nil && unopened.notification.isFallback)
    #expect(unopened.failure?.contains("did not validate") == true)
  }

  @Test func aDeviceTheRelayUnregisteredIsForgottenAndTheStreamEnds() async throws {
    let store = InMemoryCredentialStore()
    try store.setValue(
      Self.device, forKey: LocalRelayDeviceTokenProvider.deviceKey, in: .appPrivate)
    let transport = FakeWebSocketTransport(script: [.reject(upgradeStatus: 410)])
    let listener = try Self.listener(store, transport)
    var events = listener.events().makeAsyncIterator()
    let error = await #expect(throws: NotificationPreferencesError.self) {
      _ = try await events.next()
    }
    #expect(error?.code == .deviceUnregistered)
    #expect(try await LocalRelayDeviceTokenProvider(store: store).storedDevice() == nil)
  }

  @Test func theStoredDeviceIsListenedToAtItsRelayUnlessOneIsNamed() async throws {
    let store = InMemoryCredentialStore()
    try store.setValue(
      Self.device, forKey: LocalRelayDeviceTokenProvider.deviceKey, in: .appPrivate)
    for (named, expected) in [
      (nil, "ws://127.0.0.1:8787/v1/devices/stream"),
      (URL(string: "https://relay.example"), "wss://relay.example/v1/devices/stream"),
    ] {
      let transport = FakeWebSocketTransport()
      let listener = try await LocalRelayDeviceListener(
        store: store, relay: named, http: StubHTTPTransport(), webSocket: transport,
        language: .english)
      var events = listener.events().makeAsyncIterator()
      #expect(try await events.next() == .connected)
      let request = try #require(transport.requests.first)
      #expect(request.url.absoluteString == expected)
      #expect(request.headers["x-serverbee-device-token"] == Self.device.deviceToken)
      listener.stop()
    }
  }

  @Test func withoutARelayOrAStoredDeviceItSaysWhatIsMissing() async throws {
    let error = await #expect(throws: NotificationPreferencesError.self) {
      _ = try await LocalRelayDeviceListener(
        store: InMemoryCredentialStore(), relay: nil, http: StubHTTPTransport(),
        webSocket: FakeWebSocketTransport(), language: .english)
    }
    #expect(error?.code == .invalidRelayURL)
    #expect(error?.message.hasPrefix("no relay is known for this device") == true)
  }

  @Test func recentEventIDsForgetTheOldestBeyondTheLimit() {
    var seen = RecentEventIDs(limit: 2)
    let answers = ["a", "b", "a", "c", "a", "c"].map { seen.insert($0) }
    // "a" is seen again until "c" pushes it out; then "b" went, and "c" is still there.
    #expect(answers == [true, true, false, true, true, false])
  }
}
