public import Foundation
public import SecureStore
import ServerBeeCore
public import ServerBeeModels
public import ServerBeeTransport

/// The device token of a Linux or desktop device of a `serverbee-relay`, issued by the relay
/// (`POST /v1/devices`) the first time it is needed and kept in the credential store's
/// app-private group together with the relay's URL and the environment
/// (``LocalRelayDevice``, one stored value).
///
/// Like an APNs token, an issued token is valid at once: the relay accepts and holds pushes for
/// it before the device ever subscribes, so notifications can be enabled and tested before a
/// listener runs. Receive them with ``LocalRelayDeviceStream``.
///
/// ```swift
/// let tokens = LocalRelayDeviceTokenProvider(
///   store: store, relay: URL(string: "http://127.0.0.1:8787")!, transport: http)
/// let token = try await tokens.deviceToken()  // the same on every launch
/// let relay = try await tokens.storedDevice()?.relayURL  // for the listener
/// ```
///
/// Concurrent callers, in one process or in several over one store, end with one token: each
/// stores what the relay issued only when no token of this relay is stored yet, then uses what
/// is stored (a token issued to a caller that lost the race stays unused at the relay).
///
/// Without a relay (``init(store:environment:)``) the provider returns the stored device
/// whatever relay issued it; with nothing stored it makes a token on this device, as before
/// relays issued tokens. A relay knows such a token only once the device has subscribed.
///
/// A stored device of another relay or environment than the configured one is replaced by a
/// token of the configured relay (the server registration then follows the new token).
public struct LocalRelayDeviceTokenProvider: PushDeviceTokenProvider {
  /// Where a token made on this device was kept before relays issued tokens (a plain hex
  /// string); still read when ``deviceKey`` holds nothing.
  public static let storeKey: CredentialKey = "push.local-relay-device-token"
  /// Where the ``LocalRelayDevice`` is kept (app-private group).
  public static let deviceKey: CredentialKey = "push.local-relay-device"

  private let store: any CredentialStore
  private let environment: PushEnvironment
  private let relay: Relay?
  private let randomBytes: @Sendable (Int) throws -> [UInt8]

  private struct Relay: Sendable {
    var endpoint: RelayEndpoint?
    var invalid: NotificationPreferencesError?
    var transport: any HTTPTransport
  }

  /// Creates a provider without a relay: the stored device, or else a token made here with the
  /// system's random generator (known to a relay only once the device subscribed).
  /// - Parameters:
  ///   - store: The credential store that keeps the token.
  ///   - environment: The environment of a token made here; `sandbox` by default.
  public init(store: any CredentialStore, environment: PushEnvironment = .sandbox) {
    self.init(store: store, environment: environment, randomBytes: Self.systemRandomBytes)
  }

  /// Creates a provider without a relay, with an injected random source (tests).
  /// - Parameters:
  ///   - store: The credential store that keeps the token.
  ///   - environment: The environment of a token made here.
  ///   - randomBytes: Returns the requested number of random bytes (32 per token).
  public init(
    store: any CredentialStore, environment: PushEnvironment,
    randomBytes: @escaping @Sendable (Int) throws -> [UInt8]
  ) {
    self.store = store
    self.environment = environment
    self.relay = nil
    self.randomBytes = randomBytes
  }

  /// Creates a provider whose token the relay issues.
  /// - Parameters:
  ///   - store: The credential store that keeps the device.
  ///   - relay: The relay's base URL, `http(s)://host[:port]`; checked by ``deviceToken()``
  ///     (`invalidRelayURL`).
  ///   - transport: HTTP for `POST /v1/devices` (no session token is sent).
  ///   - environment: The environment to ask for; `sandbox` by default.
  public init(
    store: any CredentialStore, relay: URL, transport: any HTTPTransport,
    environment: PushEnvironment = .sandbox
  ) {
    self.store = store
    self.environment = environment
    do {
      self.relay = Relay(endpoint: try RelayEndpoint(relay), invalid: nil, transport: transport)
    } catch let error as NotificationPreferencesError {
      self.relay = Relay(endpoint: nil, invalid: error, transport: transport)
    } catch {
      self.relay = Relay(
        endpoint: nil,
        invalid: NotificationPreferencesError(.invalidRelayURL, "the relay URL is not usable"),
        transport: transport)
    }
    self.randomBytes = Self.systemRandomBytes
  }

  /// Checks the text of a relay URL the way the relay initialiser does, so a command line can
  /// refuse a bad option before doing anything else.
  ///
  /// ```swift
  /// let relay = try LocalRelayDeviceTokenProvider.relayURL("http://127.0.0.1:8787/")
  /// // http://127.0.0.1:8787
  /// ```
  ///
  /// - Parameter text: `http(s)://host[:port][/path]`.
  /// - Returns: The base URL without a trailing slash.
  /// - Throws: ``NotificationPreferencesError`` with `invalidRelayURL`.
  public static func relayURL(_ text: String) throws -> URL {
    try RelayEndpoint(text: text).baseURL
  }

  private static let systemRandomBytes: @Sendable (Int) throws -> [UInt8] = SecureRandom.bytes

  /// The stored token; else, with a relay, one the relay issues (stored first); else one made
  /// here (stored first).
  /// - Returns: The token with its environment.
  /// - Throws: ``NotificationPreferencesError``: `storageFailed`, `invalidRelayURL`,
  ///   `relayUnavailable`, `relayRejected`, `deviceTokenUnavailable`.
  public func deviceToken() async throws -> PushDeviceToken {
    guard let relay else {
      // On the store thread, not the cooperative pool; concurrent callers in this process run
      // one after another there.
      return try await store.callerExecutor.run { [self] in try loadOrMake() }
    }
    guard let endpoint = relay.endpoint else {
      throw relay.invalid
        ?? NotificationPreferencesError(.invalidRelayURL, "the relay URL is not usable")
    }
    let stored = try await store.callerExecutor.run { [self] in try storedDeviceNow() }
    if let stored, belongs(stored, to: endpoint) { return stored.pushDeviceToken }
    let issued = try await issue(from: endpoint, over: relay.transport)
    let kept = try await store.callerExecutor.run { [self] in
      try keep(issued, unlessStoredFor: endpoint)
    }
    return kept.pushDeviceToken
  }

  /// The device kept in the store: the ``LocalRelayDevice``, or a token made here before relays
  /// issued tokens (no relay URL), or `nil`.
  /// - Returns: The stored device.
  /// - Throws: ``NotificationPreferencesError`` with `storageFailed`.
  public func storedDevice() async throws -> LocalRelayDevice? {
    try await store.callerExecutor.run { [self] in try storedDeviceNow() }
  }

  /// Forgets the stored device, so the next ``deviceToken()`` gets a new token: for a token
  /// the relay unregistered (``LocalRelayDeviceStream`` ends with `deviceUnregistered`).
  ///
  /// ```swift
  /// } catch let error as NotificationPreferencesError where error.code == .deviceUnregistered {
  ///   try await tokens.forgetStoredDevice()
  ///   _ = try await preferences.enable(wanted)  // registers a newly issued token
  /// }
  /// ```
  ///
  /// - Throws: ``NotificationPreferencesError`` with `storageFailed`.
  public func forgetStoredDevice() async throws {
    try await store.callerExecutor.run { [store] in
      do {
        try store.commit(
          CredentialBatch([
            .remove(key: Self.deviceKey, group: .appPrivate),
            .remove(key: Self.storeKey, group: .appPrivate),
          ]))
      } catch {
        throw NotificationPreferencesError(
          .storageFailed, "the local device token could not be removed", underlying: error)
      }
    }
  }

  // MARK: - Store (on the store thread)

  private func storedDeviceNow() throws -> LocalRelayDevice? {
    do {
      if let device = try store.value(
        LocalRelayDevice.self, forKey: Self.deviceKey, in: .appPrivate),
        PushRegistrationRules.isLowercaseHex(device.deviceToken, evenLengthIn: 2...1024)
      {
        return device
      }
      if let legacy = try store.value(String.self, forKey: Self.storeKey, in: .appPrivate),
        PushRegistrationRules.isLowercaseHex(legacy, evenLengthIn: 2...1024)
      {
        return LocalRelayDevice(deviceToken: legacy, environment: environment, relayURL: nil)
      }
      return nil
    } catch {
      throw NotificationPreferencesError(
        .storageFailed, "the local device token could not be read", underlying: error)
    }
  }

  private func belongs(_ device: LocalRelayDevice, to endpoint: RelayEndpoint) -> Bool {
    guard device.environment == environment, let url = device.relayURL else { return false }
    return (try? RelayEndpoint(url)) == endpoint
  }

  /// Stores `issued` unless a device of this relay and environment is stored by now, then
  /// returns what is stored.
  private func keep(_ issued: LocalRelayDevice, unlessStoredFor endpoint: RelayEndpoint) throws
    -> LocalRelayDevice
  {
    switch try storedDeviceNow() {
    case nil:
      // Added only if still absent: concurrent callers (other processes too) keep one token.
      try write(issued, onlyIfAbsent: true)
    case let current? where !belongs(current, to: endpoint):
      try write(issued, onlyIfAbsent: false)  // another relay's or environment's: replaced
    default:
      break
    }
    guard let kept = try storedDeviceNow(), belongs(kept, to: endpoint) else { return issued }
    return kept
  }

  private func loadOrMake() throws -> PushDeviceToken {
    if let stored = try storedDeviceNow() { return stored.pushDeviceToken }
    let bytes = try randomBytes(32)
    guard bytes.count == 32 else {
      throw NotificationPreferencesError(
        .deviceTokenUnavailable, "the random source returned the wrong length")
    }
    let made = LocalRelayDevice(
      deviceToken: PushDeviceToken(bytes: bytes, environment: environment).hex,
      environment: environment, relayURL: nil)
    try write(made, onlyIfAbsent: true)
    return (try storedDeviceNow() ?? made).pushDeviceToken
  }

  private func write(_ device: LocalRelayDevice, onlyIfAbsent: Bool) throws {
    do {
      if onlyIfAbsent {
        _ = try store.valueAddingIfAbsent(forKey: Self.deviceKey, in: .appPrivate) { device }
      } else {
        try store.setValue(device, forKey: Self.deviceKey, in: .appPrivate)
      }
    } catch {
      throw NotificationPreferencesError(
        .storageFailed, "the local device token could not be stored", underlying: error)
    }
  }

  // MARK: - Relay

  private struct IssuedToken: Decodable {
    var deviceToken: String
    var environment: PushEnvironment

    enum CodingKeys: String, CodingKey {
      case deviceToken = "device_token"
      case environment
    }
  }

  private struct RelayAnswer: Decodable {
    var reason: String?
  }

  /// `POST /v1/devices`, the answer checked.
  private func issue(from endpoint: RelayEndpoint, over transport: any HTTPTransport)
    async throws -> LocalRelayDevice
  {
    let request = HTTPRequest(
      method: .post, url: endpoint.devicesURL,
      headers: ["accept": "application/json", "x-serverbee-environment": environment.rawValue])
    let response: HTTPResponse
    do {
      response = try await transport.send(request)
    } catch let error as CancellationError {
      throw error
    } catch {
      throw NotificationPreferencesError(
        .relayUnavailable,
        "the relay at \(endpoint.name) could not be reached: \(Self.describe(error))",
        underlying: error)
    }
    let relayName = endpoint.name
    switch response.status {
    case 200, 201:
      guard let issued = try? JSONDecoder().decode(IssuedToken.self, from: response.body),
        PushRegistrationRules.isLowercaseHex(issued.deviceToken, evenLengthIn: 2...1024),
        issued.environment == environment
      else {
        throw NotificationPreferencesError(
          .relayRejected, "the relay at \(relayName) answered with an unreadable device token",
          httpStatus: response.status)
      }
      return LocalRelayDevice(
        deviceToken: issued.deviceToken, environment: environment, relayURL: endpoint.baseURL)
    case 429:
      throw NotificationPreferencesError(
        .relayUnavailable,
        "the relay at \(relayName) is rate limiting new devices; try again in a minute",
        httpStatus: 429)
    case 404, 405:
      throw NotificationPreferencesError(
        .relayRejected,
        "the relay at \(relayName) does not issue device tokens (is it a serverbee-relay "
          + "with local devices?)", httpStatus: response.status)
    default:
      let reason = (try? JSONDecoder().decode(RelayAnswer.self, from: response.body))?.reason
      switch (response.status, reason) {
      case (503, "DeviceLimitReached"?):
        throw NotificationPreferencesError(
          .relayUnavailable, "the relay at \(relayName) has no room for another device",
          httpStatus: 503)
      case (400, "EnvironmentDisabled"?):
        throw NotificationPreferencesError(
          .relayRejected,
          "the relay at \(relayName) does not serve the \(environment.rawValue) environment",
          httpStatus: 400)
      case (500..<600, _):
        throw NotificationPreferencesError(
          .relayUnavailable, "the relay at \(relayName) is unavailable",
          httpStatus: response.status)
      default:
        throw NotificationPreferencesError(
          .relayRejected, "the relay at \(relayName) refused to issue a device token",
          httpStatus: response.status)
      }
    }
  }

  /// A transport failure in a few words, for messages that already name the relay.
  static func describe(_ error: any Error) -> String {
    guard let error = error as? ServerBeeTransportError else { return "\(error)" }
    switch error.code {
    case .connectionRefused: return "connection refused"
    case .connectionLost: return "connection lost"
    case .timedOut: return "timed out"
    case .nameResolutionFailed: return "its host name did not resolve"
    case .upgradeRejected: return "it answered HTTP \(error.httpStatus.map(String.init) ?? "?")"
    default: return error.message
    }
  }
}
