public import Foundation
import ServerBeeCore
import ServerBeeHTTP2
public import ServerBeeModels
import ServerBeeTransport

/// Delivers pushes to Apple Push Notification service over HTTP/2 with token (JWT)
/// authentication, and maps APNs answers to ``ProviderAnswer`` (Protocol/Relay.md §5).
///
/// ```swift
/// let key = try APNsSigningKey(pem: pem, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
/// let apns = APNsPushProvider(configuration: .init(signingKey: key))
/// let relay = RelayServer(
///   configuration: .init(topic: "com.example.serverbee"), provider: apns)
/// ```
///
/// Per send: `POST /3/device/<token>` on the environment's host with `authorization: bearer
/// <JWT>`, `apns-topic`, `apns-push-type: alert`, `apns-priority: 10`, `apns-expiration`,
/// `apns-id` (the event id) and the exact payload as the body. One HTTP/2 connection per
/// environment is opened on first use and reused; it holds at most
/// ``Configuration/maximumConcurrentStreams`` streams (fewer when APNs says so), and a send
/// past them waits for a stream. A dropped connection is opened again and the sends it carried
/// are sent again, as long as their deadline (``Configuration/sendTimeout``) allows. The JWT is
/// signed once and reused for ``Configuration/tokenRefreshInterval`` (40 minutes: APNs wants
/// a new one every 20 to 60 minutes), and signed again at once, with one retry of the send,
/// after `403 ExpiredProviderToken`. An idle connection sends an HTTP/2 PING every
/// ``Configuration/idlePingInterval`` (60 s) and is closed when the ACK does not come within
/// ``Configuration/pingTimeout`` (10 s); the next send then opens a new one.
///
/// Logs (``Configuration/log``) name the environment, host, statuses and reasons: never a device
/// token, a payload or the key.
public final class APNsPushProvider: PushProvider {
  /// What the provider needs.
  public struct Configuration: Sendable {
    /// Apple's fixed hosts.
    public static let productionURL = URL(string: "https://api.push.apple.com")
    /// The sandbox host, for development builds.
    public static let sandboxURL = URL(string: "https://api.sandbox.push.apple.com")

    /// The signing key, with its key id and team id.
    public var signingKey: APNsSigningKey
    /// The base URL per environment (`https://host[:port]`); Apple's by default.
    public var endpoints: [PushEnvironment: URL]
    /// A PEM file of extra CAs trusted for these connections (besides the system store).
    public var additionalCAFile: URL?
    /// How long one send may take, reconnects and retries included; 9 s by default (inside the
    /// relay's 10-second provider timeout).
    public var sendTimeout: Duration
    /// The most streams this side opens on one connection; 100 by default.
    public var maximumConcurrentStreams: Int
    /// How long a signed JWT is reused; 40 minutes by default.
    public var tokenRefreshInterval: Int64
    /// After this long without traffic, an open connection sends an HTTP/2 PING to check it
    /// still works; 60 s by default, nil for never (Protocol/Relay.md §5).
    public var idlePingInterval: Duration?
    /// How long that PING may wait for its ACK before the connection is closed (the next send
    /// opens a new one); 10 s by default.
    public var pingTimeout: Duration
    /// Where log lines go (statuses, reasons, hosts; never tokens, payloads or keys).
    public var log: (@Sendable (String) -> Void)?

    /// Creates a configuration with Apple's endpoints.
    /// - Parameters:
    ///   - signingKey: The signing key.
    ///   - endpoints: Endpoint overrides per environment; none by default.
    ///   - additionalCAFile: An extra trusted CA file; none by default.
    ///   - sendTimeout: The per-send budget; 9 s by default.
    ///   - maximumConcurrentStreams: The stream bound; 100 by default.
    ///   - tokenRefreshInterval: Seconds a JWT is reused; 2400 by default.
    ///   - idlePingInterval: The idle time before a keep-alive PING; 60 s by default.
    ///   - pingTimeout: How long the PING's ACK may take; 10 s by default.
    ///   - log: The log sink; none by default.
    public init(
      signingKey: APNsSigningKey, endpoints: [PushEnvironment: URL] = [:],
      additionalCAFile: URL? = nil, sendTimeout: Duration = .seconds(9),
      maximumConcurrentStreams: Int = 100, tokenRefreshInterval: Int64 = 2400,
      idlePingInterval: Duration? = .seconds(60), pingTimeout: Duration = .seconds(10),
      log: (@Sendable (String) -> Void)? = nil
    ) {
      self.signingKey = signingKey
      var all: [PushEnvironment: URL] = [:]
      all[.production] = Self.productionURL
      all[.sandbox] = Self.sandboxURL
      for (environment, url) in endpoints { all[environment] = url }
      self.endpoints = all
      self.additionalCAFile = additionalCAFile
      self.sendTimeout = sendTimeout
      self.maximumConcurrentStreams = maximumConcurrentStreams
      self.tokenRefreshInterval = tokenRefreshInterval
      self.idlePingInterval = idlePingInterval
      self.pingTimeout = pingTimeout
      self.log = log
    }
  }

  private let configuration: Configuration
  private let clock: RelayClock
  private let channels: [PushEnvironment: APNsChannel]
  private let tokens: APNsTokenCache

  /// Creates the provider; nothing connects until the first send.
  /// - Parameters:
  ///   - configuration: The key, endpoints and limits.
  ///   - clock: The clock for JWT `iat` and refreshes; the system clock by default.
  public init(configuration: Configuration, clock: RelayClock = .system) {
    self.configuration = configuration
    self.clock = clock
    var channels: [PushEnvironment: APNsChannel] = [:]
    for (environment, url) in configuration.endpoints {
      guard let host = url.host, !host.isEmpty else { continue }
      channels[environment] = APNsChannel(
        environment: environment, host: host, port: UInt16(clamping: url.port ?? 443),
        trust: TLSTrust(additionalCAFile: configuration.additionalCAFile),
        options: .init(
          maximumConcurrentStreams: configuration.maximumConcurrentStreams,
          idlePingInterval: configuration.idlePingInterval,
          pingTimeout: configuration.pingTimeout),
        log: configuration.log)
    }
    self.channels = channels
    tokens = APNsTokenCache(
      key: configuration.signingKey, refreshInterval: configuration.tokenRefreshInterval)
  }

  /// How many connections were opened per environment so far (for tests and the benchmark).
  public func connectionsOpened(_ environment: PushEnvironment) -> Int {
    channels[environment]?.connectionsOpened ?? 0
  }

  /// How many distinct JWTs were signed so far.
  public var tokensSigned: Int { tokens.signed }

  /// Sends one push to APNs and reports its answer.
  /// - Parameter delivery: The payload and headers the relay built.
  /// - Returns: The APNs answer; `networkFailure` when no answer came within the send timeout.
  public func deliver(_ delivery: RelayDelivery) async -> ProviderAnswer {
    guard let channel = channels[delivery.environment] else { return .networkFailure }
    let deadline = ContinuousClock.now + configuration.sendTimeout
    var refreshedToken = false
    var backoff = Duration.milliseconds(50)
    while true {
      if Task.isCancelled { return .networkFailure }
      let token: String
      do {
        token = try tokens.current(now: clock.now())
      } catch {
        configuration.log?("apns: could not sign a provider token")
        return .rejected(status: 403, reason: "InvalidProviderToken")
      }
      let outcome = await channel.send(request(for: delivery, token: token), deadline: deadline)
      switch outcome {
      case .success(let response):
        let answer = Self.answer(for: response, eventID: delivery.eventID)
        if case .rejected(403, "ExpiredProviderToken") = answer, !refreshedToken {
          refreshedToken = true
          tokens.expire(token)
          configuration.log?(
            "apns \(channel.environment.rawValue): 403 ExpiredProviderToken; signing a new token")
          continue
        }
        if response.status != 200 {
          let reason = Self.reason(in: response.body).map(PlainText.loggable) ?? "(no reason)"
          configuration.log?("apns \(channel.environment.rawValue): \(response.status) \(reason)")
        }
        return answer
      case .failure(let error):
        if let answer = Self.answer(for: error) {
          switch error {
          case .untrustedServer(let text):
            configuration.log?("apns \(channel.environment.rawValue): \(text)")
          case .protocolViolation, .malformedResponse:
            configuration.log?("apns \(channel.environment.rawValue): \(error)")
          default: break
          }
          return answer
        }
        // A dropped connection or a refused stream: send again while the deadline allows
        // (the same apns-id, so APNs can tell it is the same notification).
        if case .connectFailed = error {
          guard ContinuousClock.now + backoff < deadline else { return .networkFailure }
          try? await Task.sleep(for: backoff)
          backoff = min(backoff * 2, .seconds(1))
        }
        guard ContinuousClock.now < deadline else { return .networkFailure }
        continue
      }
    }
  }

  private func request(for delivery: RelayDelivery, token: String) -> HTTP2Request {
    var headers = [HPACKField("authorization", "bearer " + token)]
    for name in ["apns-topic", "apns-push-type", "apns-priority"] {
      headers.append(HPACKField(name, delivery.headers[name] ?? ""))
    }
    headers.append(HPACKField("apns-expiration", String(delivery.expiresAt), indexing: .none))
    headers.append(HPACKField("apns-id", delivery.eventID, indexing: .none))
    return HTTP2Request(
      method: "POST", path: "/3/device/" + delivery.deviceToken,
      headers: headers, body: Array(delivery.payload))
  }

  /// Maps an APNs response to a ``ProviderAnswer`` (Protocol/Relay.md §5): 200 is accepted;
  /// otherwise the JSON body's `reason` decides with the status; a reply without a readable
  /// reason, with another `apns-id` or an impossible status is malformed.
  static func answer(for response: HTTP2Response, eventID: String) -> ProviderAnswer {
    if let id = response.header("apns-id"), id.lowercased() != eventID {
      return .malformedReply
    }
    switch response.status {
    case 200: return .accepted
    case 429: return .rateLimited
    case 500..<600: return .serverError(status: response.status)
    case 300..<500:
      guard let reason = reason(in: response.body) else { return .malformedReply }
      if response.status == 410, reason == "Unregistered" { return .unregistered }
      if reason == "BadDeviceToken" { return .badDeviceToken }
      return .rejected(status: response.status, reason: reason)
    default: return .malformedReply
    }
  }

  /// The answer for a send that got no response, or nil when it is sent again (a connection
  /// that could not be opened or was lost, a refused stream) while the deadline allows.
  static func answer(for error: HTTP2Error) -> ProviderAnswer? {
    switch error {
    case .untrustedServer, .timedOut, .cancelled: .networkFailure
    case .protocolViolation, .malformedResponse: .malformedReply
    case .streamReset(let code) where code != .refusedStream: .networkFailure
    case .connectFailed, .connectionLost, .streamReset: nil
    }
  }

  /// The `reason` of an APNs error body (`{"reason":"…"}`, with `timestamp` on 410).
  static func reason(in body: [UInt8]) -> String? {
    guard body.count <= 4096,
      let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
      let reason = object["reason"] as? String, !reason.isEmpty, reason.utf8.count <= 128
    else { return nil }
    return reason
  }
}

/// The JWT in use, signed again after the refresh interval or when APNs calls it expired.
final class APNsTokenCache: Sendable {
  private let key: APNsSigningKey
  private let refreshInterval: Int64
  private let state = Locked<(token: String, issuedAt: Int64, signed: Int)?>(nil)

  init(key: APNsSigningKey, refreshInterval: Int64) {
    self.key = key
    self.refreshInterval = refreshInterval
  }

  var signed: Int { state.withLock { $0?.signed ?? 0 } }

  func current(now: Int64) throws -> String {
    try state.withLock { state in
      if let cached = state, now - cached.issuedAt < refreshInterval, now >= cached.issuedAt {
        return cached.token
      }
      let token = try key.token(issuedAt: now)
      state = (token, now, (state?.signed ?? 0) + 1)
      return token
    }
  }

  /// Forgets `token` if it is still the current one (another send may have replaced it).
  func expire(_ token: String) {
    state.withLock { state in
      if state?.token == token { state?.issuedAt = Int64.min / 2 }
    }
  }
}

/// One environment's connection: opened on first use (one attempt at a time), reused while it
/// accepts requests, replaced after it drops or receives GOAWAY.
final class APNsChannel: Sendable {
  let environment: PushEnvironment
  private let host: String
  private let port: UInt16
  private let trust: TLSTrust
  private let options: HTTP2ClientConnection.Options
  private let log: (@Sendable (String) -> Void)?
  private let state = Locked(State())

  private struct State {
    var connection: HTTP2ClientConnection?
    var connecting: Task<Result<HTTP2ClientConnection, HTTP2Error>, Never>?
    var opened = 0
  }

  init(
    environment: PushEnvironment, host: String, port: UInt16, trust: TLSTrust,
    options: HTTP2ClientConnection.Options, log: (@Sendable (String) -> Void)?
  ) {
    self.environment = environment
    self.host = host
    self.port = port
    self.trust = trust
    self.options = options
    self.log = log
  }

  var connectionsOpened: Int { state.withLock { $0.opened } }

  func send(
    _ request: HTTP2Request, deadline: ContinuousClock.Instant
  ) async -> Result<HTTP2Response, HTTP2Error> {
    let connection: HTTP2ClientConnection
    switch await connect(deadline: deadline) {
    case .success(let open): connection = open
    case .failure(let error): return .failure(error)
    }
    do {
      return .success(try await connection.send(request, deadline: deadline))
    } catch {
      if !connection.isAcceptingRequests { discard(connection, because: error) }
      return .failure(error)
    }
  }

  private func connect(deadline: ContinuousClock.Instant) async -> Result<
    HTTP2ClientConnection, HTTP2Error
  > {
    let task = state.withLock { state -> Task<Result<HTTP2ClientConnection, HTTP2Error>, Never> in
      if let connection = state.connection, connection.isAcceptingRequests {
        return Task { .success(connection) }
      }
      if let connecting = state.connecting { return connecting }
      let (host, port, trust, options) = (self.host, self.port, self.trust, self.options)
      let task = Task { () async -> Result<HTTP2ClientConnection, HTTP2Error> in
        do throws(HTTP2Error) {
          return .success(
            try await HTTP2ClientConnection.connect(
              host: host, port: port, trust: trust, options: options, deadline: deadline))
        } catch {
          return .failure(error)
        }
      }
      state.connecting = task
      return task
    }
    let result = await task.value
    state.withLock { state in
      guard state.connecting == task else { return }
      state.connecting = nil
      if case .success(let connection) = result {
        state.connection = connection
        state.opened += 1
        log?("apns \(environment.rawValue): connected to \(host):\(port)")
      }
    }
    if case .failure(let error) = result {
      log?("apns \(environment.rawValue): \(host):\(port): \(error)")
    }
    return result
  }

  private func discard(_ connection: HTTP2ClientConnection, because error: HTTP2Error) {
    let dropped = state.withLock { state -> Bool in
      guard state.connection === connection else { return false }
      state.connection = nil
      return true
    }
    if dropped { log?("apns \(environment.rawValue): connection ended: \(error)") }
  }
}
