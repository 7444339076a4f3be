public import Foundation
public import ServerBeeModels
import ServerBeeServerKit
import ServerBeeSocketTransport
import ServerBeeTransport

/// A ServerBee-compatible push relay: `POST /v1/send` exactly as Protocol/Relay.md describes it, in
/// process, over loopback HTTP or HTTPS, with a pluggable ``PushProvider``.
///
/// ```swift
/// let provider = ScriptedPushProvider()
/// let relay = RelayServer(provider: provider)
/// let url = try relay.start()          // http://127.0.0.1:<ephemeral port>
/// // point a ServerBee server at it: [push_relay] url = "\(url)"
/// provider.script(deviceToken: token, .unregistered)
/// relay.stop()
/// ```
///
/// Every `/v1/send` answer is `{"outcome":…,"reason":…,"device_invalid":…}` with
/// `Content-Type: application/json` and `Cache-Control: no-store`. The checks run in this
/// order, the first failure answers:
/// 1. path → 404 `NotFound` (every path but `/v1/send`, the device routes and `/__relay/`);
/// 2. method → 405 `MethodNotAllowed` with `Allow: POST`;
/// 3. configuration → 503 permanent `RelayNotConfigured` (see ``Configuration/isUsable``);
/// 4. `Content-Type` not `application/json` (parameters allowed) → 415; `Content-Encoding`
///    other than `identity` → 415 `UnsupportedMediaType`;
/// 5. body over ``Configuration/maximumBodySize`` → 413 `RequestTooLarge` (a body over 64 KiB
///    is refused from its `Content-Length` before it is read; a body that takes longer than
///    ``Configuration/uploadTimeout`` gets 408 `RequestTimeout` at any point);
/// 6. rate limits per isolate (the whole relay) and per client IP → 429 `RateLimited`,
///    `Retry-After: 60`;
/// 7. requests in flight ≥ ``Limits/maximumInFlight`` → 503 `RelayBusy`, `Retry-After: 1`
///    (uploads still arriving count; at the cap the upload that has held its slot longest, past
///    ``Configuration/uploadGracePeriod``, is cut off with 408 instead; steps 3–7 run as soon
///    as the head is in when the body is not, and such a refusal closes the connection);
/// 8. schema (UTF-8, JSON, keys, rules) → 400 `InvalidRequest`;
/// 9. environment not in ``Configuration/environments`` → 400 `EnvironmentDisabled`;
/// 10. `expires_at` > now + 1800 → 400 `InvalidRequest`; `expires_at` ≤ now → 200
///     `expired`/`Expired` (the provider is not contacted);
/// 11. sends per environment + device token → 429 `RateLimited`, `Retry-After: 60`;
/// 12. APNs payload over ``Configuration/maximumPayloadSize`` → 200 `permanent`/`PayloadTooLarge`;
/// 13. the provider, bounded by ``Configuration/providerTimeout``, mapped by
///     ``ProviderAnswer/verdict`` (a timeout is `retryable`/`NetworkUnavailable`).
///
/// The relay never retries or deduplicates, never opens the envelope, and never logs a device
/// token, envelope or body (``Configuration/log`` gets only statuses and reasons). It queues
/// only for ``LocalDevicePushProvider``'s offline devices, as APNs holds a notification for an
/// offline device.
///
/// With a ``LocalDevicePushProvider`` (directly or as a ``ScriptedPushProvider``'s fallback) the
/// device routes are served too: `POST /v1/devices` (a new token, 201
/// `{"device_token":…,"environment":…}`; 429 `RateLimited` under the per-relay and per-IP
/// limits above; 503 `DeviceLimitReached` at the device cap), `GET /v1/devices/stream` and
/// `DELETE /v1/devices/{token}`; see ``LocalDevicePushProvider``.
/// Rate-limit windows are fixed minutes of the injected ``RelayClock``.
///
/// The control API under `/__relay/` (header `X-Relay-Token: <controlToken>`, else a bare 401)
/// scripts a ``ScriptedPushProvider``, lists ``received()`` and local devices; see the catalog.
public final class RelayServer: Sendable {
  /// The relay's settings; every default is the public relay's.
  public struct Configuration: Sendable {
    /// The APNs environments served (`APNS_ENVIRONMENTS`); both by default.
    public var environments: Set<PushEnvironment>
    /// The `apns-topic`; `app.serverbee` (the official app) by default.
    public var topic: String
    /// The most time a request may take to arrive, counted from its first byte (408 after);
    /// 5 s by default. An idle keep-alive connection is closed silently after the same time.
    public var uploadTimeout: Duration
    /// The most time the provider may take (then `retryable`/`NetworkUnavailable`); 10 s by
    /// default.
    public var providerTimeout: Duration
    /// How long an upload holding an in-flight slot is safe from being cut off (408) to make
    /// room for a new request when ``Limits/maximumInFlight`` are in flight; 1 s by default
    /// (decision 0009).
    public var uploadGracePeriod: Duration
    /// The control API token; `nil` (the default) makes a random one.
    public var controlToken: String?
    /// Rate limits and the in-flight cap.
    public var limits: Limits
    /// The largest request body (413 above); 8192 bytes.
    public var maximumBodySize: Int
    /// The largest APNs payload (`PayloadTooLarge` above); 4096 bytes. A request that passes
    /// the schema makes a payload of at most about 3 KB, so only a smaller limit reaches it.
    public var maximumPayloadSize: Int
    /// How many ``RelayCapture`` values ``received()`` keeps (oldest dropped); 1000.
    public var maximumCapturedRequests: Int
    /// Where the relay writes one line per event (status and reason only, never a token,
    /// envelope or body); `nil` (silent) by default.
    public var log: (@Sendable (String) -> Void)?

    /// Creates a configuration with the documented defaults.
    /// - Parameters:
    ///   - environments: The environments served.
    ///   - topic: The `apns-topic`.
    ///   - uploadTimeout: The upload limit.
    ///   - providerTimeout: The provider limit.
    ///   - controlToken: The control token, or `nil` for a random one.
    ///   - limits: The rate limits.
    public init(
      environments: Set<PushEnvironment> = [.sandbox, .production],
      topic: String = "app.serverbee", uploadTimeout: Duration = .seconds(5),
      providerTimeout: Duration = .seconds(10), controlToken: String? = nil,
      limits: Limits = Limits()
    ) {
      self.environments = environments
      self.topic = topic
      self.uploadTimeout = uploadTimeout
      self.providerTimeout = providerTimeout
      self.uploadGracePeriod = .seconds(1)
      self.controlToken = controlToken
      self.limits = limits
      self.maximumBodySize = 8192
      self.maximumPayloadSize = 4096
      self.maximumCapturedRequests = 1000
      self.log = nil
    }

    /// Whether the relay can send at all: a non-empty topic of letters, digits, `.`, `-` and
    /// `_`, and at least one environment. A relay that is not usable answers every
    /// `POST /v1/send` with 503 `permanent`/`RelayNotConfigured`, like the Worker without its
    /// signing configuration.
    public var isUsable: Bool {
      !environments.isEmpty && !topic.isEmpty
        && topic.utf8.allSatisfy {
          (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0)
            || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }
    }
  }

  /// Rate limits (per minute of the relay clock) and the in-flight cap of Protocol/Relay.md.
  public struct Limits: Sendable, Hashable {
    /// Requests per client IP per minute; 120.
    public var requestsPerClient: Int
    /// Sends per environment + device token per minute; 60.
    public var sendsPerDevice: Int
    /// Requests per minute for the whole relay (the Worker's isolate); 600.
    public var requestsPerRelay: Int
    /// The most requests in flight (503 `RelayBusy` when that many are); 32.
    public var maximumInFlight: Int

    /// Creates limits; the defaults are Protocol/Relay.md's.
    /// - Parameters:
    ///   - requestsPerClient: Per client IP per minute.
    ///   - sendsPerDevice: Per environment + token per minute.
    ///   - requestsPerRelay: Per relay per minute.
    ///   - maximumInFlight: The in-flight cap.
    public init(
      requestsPerClient: Int = 120, sendsPerDevice: Int = 60, requestsPerRelay: Int = 600,
      maximumInFlight: Int = 32
    ) {
      self.requestsPerClient = requestsPerClient
      self.sendsPerDevice = sendsPerDevice
      self.requestsPerRelay = requestsPerRelay
      self.maximumInFlight = maximumInFlight
    }
  }

  /// A PEM certificate chain and private key to serve HTTPS.
  public struct TLSFiles: Sendable, Hashable {
    /// The certificate chain (leaf first), PEM.
    public var certificate: URL
    /// The private key, PEM.
    public var privateKey: URL

    /// Creates the pair.
    /// - Parameters:
    ///   - certificate: The certificate chain file.
    ///   - privateKey: The key file.
    public init(certificate: URL, privateKey: URL) {
      self.certificate = certificate
      self.privateKey = privateKey
    }
  }

  /// The token the control API expects in `X-Relay-Token`.
  public var controlToken: String { core.controlToken }
  /// The configuration.
  public var configuration: Configuration { core.configuration }
  /// The provider.
  public var provider: any PushProvider { core.provider }
  /// The `POST /v1/send` requests in flight now, uploads still arriving included (503
  /// `RelayBusy` at ``Limits/maximumInFlight``).
  public var requestsInFlight: Int { core.inFlight.count }

  private let core: RelayCore
  private let server = Locked<HTTPServer?>(nil)

  /// Creates a relay; it listens after ``start(port:host:tls:)``.
  /// - Parameters:
  ///   - configuration: The settings; the public relay's defaults by default.
  ///   - provider: Who delivers the pushes.
  ///   - clock: The relay clock (expiry, rate windows, timeouts); the system clock by default.
  public init(
    configuration: Configuration = Configuration(), provider: any PushProvider,
    clock: RelayClock = .system
  ) {
    core = RelayCore(configuration: configuration, provider: provider, clock: clock)
  }

  /// Starts listening.
  /// - Parameters:
  ///   - port: The port; 0 (the default) picks an ephemeral one.
  ///   - host: The IP address to bind; `127.0.0.1` by default.
  ///   - tls: A certificate and key to serve HTTPS, or `nil` (the default) for plain HTTP.
  /// - Returns: The base URL, for example `http://127.0.0.1:49152`.
  /// - Throws: ``ServerBeeRelayError`` with `listenFailed` or `alreadyStarted`.
  @discardableResult
  public func start(port: UInt16 = 0, host: String = "127.0.0.1", tls: TLSFiles? = nil) throws
    -> URL
  {
    if server.withLock({ $0 != nil }) {
      throw ServerBeeRelayError(.alreadyStarted, "the relay is already listening")
    }
    let listening: HTTPServer
    do {
      let identity = try tls.map {
        try TLSServerIdentity(certificateChainFile: $0.certificate, privateKeyFile: $0.privateKey)
      }
      listening = try HTTPServer(
        configuration: core.serverConfiguration(host: host, port: port, tls: identity))
    } catch {
      throw ServerBeeRelayError(
        .listenFailed, "cannot listen on \(host):\(port): \(error)", underlying: error)
    }
    let core = core
    listening.start { request in await core.handle(request) }
    let raced = server.withLock { value -> Bool in
      guard value == nil else { return true }
      value = listening
      return false
    }
    if raced {
      listening.stop()
      throw ServerBeeRelayError(.alreadyStarted, "the relay is already listening")
    }
    let hostText = host.contains(":") ? "[\(host)]" : host
    let text = "\(tls == nil ? "http" : "https")://\(hostText):\(listening.port)"
    guard let url = URL(string: text) else {
      stop()
      throw ServerBeeRelayError(.listenFailed, "bad listen URL \(text)")
    }
    core.log("listening on \(text)")
    return url
  }

  /// Refuses new connections at once and closes every open one, device streams included
  /// (close 1001). Safe to call more than once; the relay can be started again afterwards.
  public func stop() {
    let listening = server.withLock { value -> HTTPServer? in
      defer { value = nil }
      return value
    }
    // Device streams are open connections of the server: they get close 1001 here too.
    listening?.stop()
  }

  /// The `POST /v1/send` requests received so far (oldest first, at most
  /// ``Configuration/maximumCapturedRequests``), whatever their answer.
  /// - Returns: The captures.
  public func received() -> [RelayCapture] { core.captures() }

  /// Forgets the captured requests.
  public func clearReceived() { core.clearCaptures() }

  deinit { stop() }
}
