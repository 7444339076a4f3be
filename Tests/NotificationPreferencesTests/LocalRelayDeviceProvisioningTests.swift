import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import NotificationPreferences

/// ``LocalRelayDeviceTokenProvider`` with a relay: the relay issues the token, the store keeps
/// it with the relay and environment, and racing callers end with one token.
@Suite(.timeLimit(.minutes(5)))
struct LocalRelayDeviceProvisioningTests {
  static var relay: URL { url("http://127.0.0.1:8787") }

  /// A URL from a literal this suite knows is valid (a file URL when it is not, failing the
  /// test's relay checks loudly instead of crashing).
  static func url(_ text: String) -> URL { URL(string: text) ?? URL(fileURLWithPath: text) }
  static let issued = String(repeating: "5a", count: 32)

  static func issuedBody(_ token: String = issued, environment: String = "sandbox") -> HTTPResponse
  {
    .json(201, #"{"device_token":"\#(token)","environment":"\#(environment)"}"#)
  }

  @Test func withNothingStoredTheRelayIssuesTheTokenAndTheStoreKeepsItWithTheRelay()
    async throws
  {
    let store = InMemoryCredentialStore()
    let http = StubHTTPTransport()
    await http.expect(.post, "/v1/devices", reply: Self.issuedBody())
    let tokens = LocalRelayDeviceTokenProvider(store: store, relay: Self.relay, transport: http)

    let token = try await tokens.deviceToken()
    #expect(token == PushDeviceToken(hex: Self.issued, environment: .sandbox))
    let again = try await tokens.deviceToken()  // no second request: the stub would fail
    #expect(again == token)
    let stored = try #require(try await tokens.storedDevice())
    #expect(stored.relayURL == Self.relay)
    #expect(stored.environment == .sandbox)
    #expect(!stored.description.contains(Self.issued))
    let request = try #require(await http.received.first)
    #expect(request.url.absoluteString == "http://127.0.0.1:8787/v1/devices")
    #expect(request.headers["x-serverbee-environment"] == "sandbox")
    await http.verifyAllConsumed()
  }

  @Test func aProviderWithoutARelayReadsTheDeviceTheRelayIssued() async throws {
    let store = InMemoryCredentialStore()
    let http = StubHTTPTransport()
    await http.expect(.post, "/v1/devices", reply: Self.issuedBody())
    _ = try await LocalRelayDeviceTokenProvider(
      store: store, relay: Self.relay, transport: http
    ).deviceToken()
    let plain = LocalRelayDeviceTokenProvider(store: store)
    #expect(try await plain.deviceToken().hex == Self.issued)
    #expect(try await plain.storedDevice()?.relayURL == Self.relay)
  }

  @Test func theProductionEnvironmentIsAskedForAndKept() async throws {
    let http = StubHTTPTransport()
    await http.expect(.post, "/v1/devices", reply: Self.issuedBody(environment: "production"))
    let tokens = LocalRelayDeviceTokenProvider(
      store: InMemoryCredentialStore(), relay: Self.relay, transport: http,
      environment: .production)
    #expect(try await tokens.deviceToken().environment == .production)
    #expect(await http.received.first?.headers["x-serverbee-environment"] == "production")
  }

  @Test func concurrentCallersOnOneStoreEndWithOneToken() async throws {
    let store = InMemoryCredentialStore()
    let relay = HeldIssuingRelay(holdUntil: 2)
    // Two providers over one store stand for two processes sharing it.
    let first = LocalRelayDeviceTokenProvider(store: store, relay: Self.relay, transport: relay)
    let second = LocalRelayDeviceTokenProvider(store: store, relay: Self.relay, transport: relay)
    async let a = first.deviceToken()
    async let b = second.deviceToken()
    let (tokenA, tokenB) = try await (a, b)
    #expect(await relay.issuedCount == 2)  // both asked: neither had a token stored yet
    #expect(tokenA == tokenB)
    #expect(try await first.storedDevice()?.deviceToken == tokenA.hex)
  }

  @Test func aDeviceOfAnotherRelayIsReplacedByOneOfTheConfiguredRelay() async throws {
    let store = InMemoryCredentialStore()
    try store.setValue(
      LocalRelayDevice(
        deviceToken: "ab", environment: .sandbox, relayURL: Self.url("http://127.0.0.1:1")),
      forKey: LocalRelayDeviceTokenProvider.deviceKey, in: .appPrivate)
    let http = StubHTTPTransport()
    await http.expect(.post, "/v1/devices", reply: Self.issuedBody())
    let token = try await LocalRelayDeviceTokenProvider(
      store: store, relay: Self.url("http://127.0.0.1:8787/"), transport: http
    ).deviceToken()
    #expect(token.hex == Self.issued)
    let stored = try store.value(
      LocalRelayDevice.self, forKey: LocalRelayDeviceTokenProvider.deviceKey, in: .appPrivate)
    #expect(stored?.relayURL == Self.relay)
  }

  @Test func aTokenMadeHereBeforeRelaysIssuedTokensIsKeptWithoutARelayAndReplacedWithOne()
    async throws
  {
    let store = InMemoryCredentialStore()
    try store.setValue(
      "cd", forKey: LocalRelayDeviceTokenProvider.storeKey, in: .appPrivate)
    #expect(try await LocalRelayDeviceTokenProvider(store: store).deviceToken().hex == "cd")
    let http = StubHTTPTransport()
    await http.expect(.post, "/v1/devices", reply: Self.issuedBody())
    let relayed = LocalRelayDeviceTokenProvider(store: store, relay: Self.relay, transport: http)
    #expect(try await relayed.deviceToken().hex == Self.issued)
  }

  @Test func aForgottenDeviceIsReplacedByANewlyIssuedToken() async throws {
    let store = InMemoryCredentialStore()
    let http = StubHTTPTransport()
    await http.expect(.post, "/v1/devices", reply: Self.issuedBody())
    await http.expect(
      .post, "/v1/devices", reply: Self.issuedBody(String(repeating: "6b", count: 32)))
    let tokens = LocalRelayDeviceTokenProvider(store: store, relay: Self.relay, transport: http)
    #expect(try await tokens.deviceToken().hex == Self.issued)
    try await tokens.forgetStoredDevice()
    #expect(try await tokens.storedDevice() == nil)
    #expect(try await tokens.deviceToken().hex == String(repeating: "6b", count: 32))
    await http.verifyAllConsumed()
  }

  struct RelayFailure: Sendable, CustomStringConvertible {
    var description: String
    var reply: HTTPResponse?
    var code: NotificationPreferencesError.Code
  }

  @Test(arguments: [
    RelayFailure(description: "unreachable", reply: nil, code: .relayUnavailable),
    RelayFailure(
      description: "device cap",
      reply: .json(
        503, #"{"outcome":"retryable","reason":"DeviceLimitReached","device_invalid":false}"#),
      code: .relayUnavailable),
    RelayFailure(
      description: "rate limited",
      reply: .json(429, #"{"outcome":"retryable","reason":"RateLimited","device_invalid":false}"#),
      code: .relayUnavailable),
    RelayFailure(
      description: "no device routes",
      reply: .json(404, #"{"outcome":"permanent","reason":"NotFound","device_invalid":false}"#),
      code: .relayRejected),
    RelayFailure(
      description: "environment disabled",
      reply: .json(
        400, #"{"outcome":"permanent","reason":"EnvironmentDisabled","device_invalid":false}"#),
      code: .relayRejected),
    RelayFailure(
      description: "unreadable token", reply: .json(201, #"{"device_token":"XYZ"}"#),
      code: .relayRejected),
  ])
  func relayFailuresAreTypedAndNameTheRelay(_ failure: RelayFailure) async throws {
    let store = InMemoryCredentialStore()
    let http = StubHTTPTransport()
    if let reply = failure.reply {
      await http.expect(.post, "/v1/devices", reply: reply)
    } else {
      await http.expect(
        .post, "/v1/devices",
        throwing: ServerBeeTransportError(.connectionRefused, "connect failed"))
    }
    let tokens = LocalRelayDeviceTokenProvider(store: store, relay: Self.relay, transport: http)
    let error = await #expect(throws: NotificationPreferencesError.self) {
      try await tokens.deviceToken()
    }
    #expect(error?.code == failure.code)
    #expect(error?.message.contains("the relay at http://127.0.0.1:8787") == true)
    #expect(error?.message.contains("the server") == false)
    #expect(try store.keys(in: .appPrivate).isEmpty)
  }

  @Test(arguments: ["ftp://127.0.0.1:8787", "http://user@127.0.0.1:8787", "http:///v1", "relay"])
  func anUnusableRelayURLIsInvalid(_ text: String) async throws {
    #expect(throws: NotificationPreferencesError.self) {
      try LocalRelayDeviceTokenProvider.relayURL(text)
    }
    guard let url = URL(string: text) else { return }
    let tokens = LocalRelayDeviceTokenProvider(
      store: InMemoryCredentialStore(), relay: url, transport: StubHTTPTransport())
    let error = await #expect(throws: NotificationPreferencesError.self) {
      try await tokens.deviceToken()
    }
    #expect(error?.code == .invalidRelayURL)
  }

  @Test func aRelayURLLosesItsTrailingSlash() throws {
    #expect(
      try LocalRelayDeviceTokenProvider.relayURL("http://127.0.0.1:8787/").absoluteString
        == "http://127.0.0.1:8787")
  }
}

/// A relay that issues a new token per request and holds every answer until `holdUntil`
/// requests have arrived, so racing callers both ask before either stores.
actor HeldIssuingRelay: HTTPTransport {
  private let holdUntil: Int
  private var waiting: [CheckedContinuation<Void, Never>] = []
  private(set) var issuedCount = 0

  init(holdUntil: Int) { self.holdUntil = holdUntil }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    issuedCount += 1
    let token = String(repeating: String(format: "%02x", issuedCount), count: 32)
    if issuedCount < holdUntil {
      await withCheckedContinuation { waiting.append($0) }
    } else {
      for continuation in waiting { continuation.resume() }
      waiting = []
    }
    return .json(201, #"{"device_token":"\#(token)","environment":"sandbox"}"#)
  }
}
