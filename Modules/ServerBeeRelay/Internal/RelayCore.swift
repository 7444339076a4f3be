import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeServerKit
import ServerBeeSocketTransport
import ServerBeeTransport

extension PushDeliveryReason {
  // Reasons only the relay answers with (Protocol/Relay.md); the shared ones live in
  // ServerBeeModels.
  static let notFound: Self = "NotFound"
  static let methodNotAllowed: Self = "MethodNotAllowed"
  static let requestTooLarge: Self = "RequestTooLarge"
  static let unsupportedMediaType: Self = "UnsupportedMediaType"
  static let deviceLimitReached: Self = "DeviceLimitReached"
}

/// A relay answer: status, verdict and any extra headers.
struct RelayAnswer: Sendable {
  var status: Int
  var verdict: RelayVerdict
  var headers: HTTPHeaders = [:]

  static func permanent(_ status: Int, _ reason: PushDeliveryReason) -> RelayAnswer {
    RelayAnswer(status: status, verdict: RelayVerdict(outcome: .permanent, reason: reason))
  }

  static func retryable(_ status: Int, _ reason: PushDeliveryReason, retryAfter: Int? = nil)
    -> RelayAnswer
  {
    var answer = RelayAnswer(
      status: status, verdict: RelayVerdict(outcome: .retryable, reason: reason))
    if let retryAfter { answer.headers["retry-after"] = String(retryAfter) }
    return answer
  }

  /// The compact verdict bytes, keys in Protocol/Relay.md order.
  var body: [UInt8] { RelayAnswer.encode(verdict) }

  static func encode(_ verdict: RelayVerdict) -> [UInt8] {
    // What WireJSON writes, by hand when neither string needs an escape (every verdict the
    // relay makes): the generic encoder was about 20 k instructions of each send.
    let outcome = verdict.outcome.rawValue
    let reason = verdict.reason.rawValue
    if PlainText.isPlainJSON(outcome), PlainText.isPlainJSON(reason) {
      var out: [UInt8] = []
      out.reserveCapacity(64 + outcome.utf8.count + reason.utf8.count)
      PlainText.append(#"{"outcome":""#, to: &out)
      PlainText.append(outcome, to: &out)
      PlainText.append(#"","reason":""#, to: &out)
      PlainText.append(reason, to: &out)
      PlainText.append(#"","device_invalid":"#, to: &out)
      PlainText.append(verdict.deviceInvalid ? "true}" : "false}", to: &out)
      return out
    }
    if let data = try? WireJSON.encode(verdict) { return Array(data) }
    // Unreachable: a verdict is two strings and a Bool.
    return Array(
      #"{"outcome":"retryable","reason":"NetworkUnavailable","device_invalid":false}"#.utf8)
  }

  private static let commonHeaders: HTTPHeaders = [
    "content-type": "application/json", "cache-control": "no-store",
  ]

  /// The headers every verdict carries, plus the extra ones.
  var allHeaders: HTTPHeaders {
    // Most answers have no extra header: one prebuilt value, no lowercasing or hashing.
    if headers.fields.isEmpty { return Self.commonHeaders }
    var all = headers
    all["content-type"] = "application/json"
    all["cache-control"] = "no-store"
    return all
  }
}

/// The relay's request handling behind ``RelayServer``: routing, the `/v1/send` pipeline, the
/// device routes and the control API. Shared state is behind locks; nothing here blocks.
final class RelayCore: Sendable {
  let configuration: RelayServer.Configuration
  let provider: any PushProvider
  let clock: RelayClock
  let controlToken: String
  let scripted: ScriptedPushProvider?
  let devices: LocalDevicePushProvider?
  private let limiter = Locked(RateLimiter())
  let inFlight: InFlightRequests
  private let providerCall: ProviderCall
  private let captured: Locked<CaptureRing<RelayCapture>>

  /// Bodies above this are refused from their `Content-Length` before they are read; the
  /// Protocol/Relay.md limit itself is checked later, in the documented order.
  static let transportBodyCap = 64 * 1024

  init(configuration: RelayServer.Configuration, provider: any PushProvider, clock: RelayClock) {
    self.configuration = configuration
    self.provider = provider
    self.clock = clock
    controlToken = configuration.controlToken ?? Self.randomToken()
    inFlight = InFlightRequests(
      maximum: configuration.limits.maximumInFlight, grace: configuration.uploadGracePeriod)
    captured = Locked(CaptureRing(capacity: configuration.maximumCapturedRequests))
    providerCall = ProviderCall(timeout: configuration.providerTimeout, clock: clock)
    scripted = provider as? ScriptedPushProvider
    devices =
      (provider as? LocalDevicePushProvider)
      ?? (scripted?.fallback as? LocalDevicePushProvider)
      ?? (provider as? DeviceRoutingPushProvider)?.local
      ?? (scripted?.fallback as? DeviceRoutingPushProvider)?.local
  }

  /// 32 random bytes as 64 hex digits.
  private static func randomToken() -> String { Hex.encode(SecureRandom.bytes(32)) }

  func log(_ line: String) { configuration.log?(line) }

  func serverConfiguration(host: String, port: UInt16, tls: TLSServerIdentity?)
    -> HTTPServer.Configuration
  {
    HTTPServer.Configuration(
      host: host, port: port, tls: tls, requestTimeout: configuration.uploadTimeout,
      idleTimeout: configuration.uploadTimeout,
      maximumBodySize: max(Self.transportBodyCap, configuration.maximumBodySize),
      rejection: { [weak self] status in
        let answer: RelayAnswer
        switch status {
        case 408: answer = .retryable(408, .requestTimeout)
        // Only for want of file descriptors: the same retry advice as a full relay.
        case 503: answer = .retryable(503, .relayBusy, retryAfter: 1)
        case 413: answer = .permanent(413, .requestTooLarge)
        default: answer = .permanent(status, .invalidRequest)
        }
        // The 503 is written once at start, to be ready when descriptors run out, which
        // `onDescriptorsExhausted` reports: only the per-request rejections are logged here.
        if status != 503 {
          self?.log("rejected by the transport: \(status) \(answer.verdict.reason.rawValue)")
        }
        return HTTPServerRejection(headers: answer.allHeaders, body: answer.body)
      },
      uploadGate: { [weak self] head, connection in
        self?.uploadGate(head, connection) ?? .proceed(nil)
      },
      onDescriptorsExhausted: { [weak self] in
        let limit = DescriptorBudget.current().map { " (limit \($0.soft))" } ?? ""
        self?.log(
          "out of file descriptors\(limit): new connections get 503 RelayBusy until some "
            + "close")
      })
  }

  // MARK: - Routing

  func handle(_ request: HTTPServerRequest) async {
    let head = request.head
    let path = Self.path(of: head.target)
    if path == "/__relay" || path.hasPrefix("/__relay/") {
      await ControlAPI(core: self).handle(request, path: path)
      return
    }
    if path == "/v1/send" {
      guard head.method == "POST" else {
        var answer = RelayAnswer.permanent(405, .methodNotAllowed)
        answer.headers["allow"] = "POST"
        await respond(request, answer)
        return
      }
      await respond(request, await send(request))
      return
    }
    if let devices, path == "/v1/devices" {
      guard head.method == "POST" else {
        var answer = RelayAnswer.permanent(405, .methodNotAllowed)
        answer.headers["allow"] = "POST"
        await respond(request, answer)
        return
      }
      await DeviceStream(core: self, devices: devices).provision(request)
      return
    }
    if let devices, path == "/v1/devices/stream", head.method == "GET" {
      await DeviceStream(core: self, devices: devices).subscribe(request)
      return
    }
    if let devices, path.hasPrefix("/v1/devices/"), head.method == "DELETE" {
      await DeviceStream(core: self, devices: devices).unregister(
        request, token: String(path.dropFirst("/v1/devices/".count)))
      return
    }
    await respond(request, .permanent(404, .notFound))
  }

  func respond(_ request: HTTPServerRequest, _ answer: RelayAnswer) async {
    await request.respond(
      HTTPResponseHead(
        status: answer.status, reason: Self.reason(answer.status), headers: answer.allHeaders),
      body: answer.body)
  }

  // MARK: - POST /v1/send

  private func send(_ request: HTTPServerRequest) async -> RelayAnswer {
    let now = clock.now()
    let client = Self.clientAddress(request.connection)
    var parsed: RelaySendRequest?
    let answer = await decide(request, now: now, client: client, parsed: &parsed)
    record(now: now, client: client, body: request.body, request: parsed, answer: answer)
    return answer
  }

  /// A `/v1/send` whose body is still arriving: the head's checks (steps 3–7) now, so that the
  /// upload counts as in flight and a refusal does not wait for the body.
  private func uploadGate(_ head: HTTPRequestHead, _ connection: HTTPServerConnection)
    -> HTTPUploadDecision
  {
    let path = Self.path(of: head.target)
    guard path == "/v1/send", head.method == "POST" else { return .proceed(nil) }
    let now = clock.now()
    let client = Self.clientAddress(connection)
    let length = head.headers["content-length"].flatMap { Int($0) } ?? 0
    switch admit(head.headers, bodySize: length, now: now, client: client, upload: connection) {
    case .admitted(let ticket):
      return .proceed(ticket)
    case .refused(let answer):
      record(now: now, client: client, body: [], request: nil, answer: answer)
      return .answer(
        HTTPResponseHead(
          status: answer.status, reason: Self.reason(answer.status), headers: answer.allHeaders),
        body: answer.body)
    }
  }

  /// The target before its query: the first non-empty part split at `?` (as `split` omits
  /// empty parts), which is the target itself when it has no `?` byte (no split needed).
  static func path(of target: String) -> String {
    guard target.utf8.contains(UInt8(ascii: "?")) else { return target }
    return String(target.split(separator: "?", maxSplits: 1).first ?? "")
  }

  private static func clientAddress(_ connection: HTTPServerConnection) -> String {
    connection.peerAddress.isEmpty ? "unknown" : connection.peerAddress
  }

  /// The outcome of steps 3–7.
  enum Admission {
    case admitted(HTTPRequestTicket)
    case refused(RelayAnswer)
  }

  /// Steps 3–7, from the head alone: configuration, media type, size, rate limits, then an
  /// in-flight slot.
  private func admit(
    _ headers: HTTPHeaders, bodySize: Int, now: Int64, client: String,
    upload: HTTPServerConnection?
  ) -> Admission {
    guard configuration.isUsable else { return .refused(.permanent(503, .relayNotConfigured)) }
    // `fields` is keyed by lowercased name, as the subscript looks up.
    guard Self.isJSON(headers.fields["content-type"]) else {
      return .refused(.permanent(415, .unsupportedMediaType))
    }
    if let encoding = headers.fields["content-encoding"], !MediaType.isIdentity(encoding) {
      return .refused(.permanent(415, .unsupportedMediaType))
    }
    guard bodySize <= configuration.maximumBodySize else {
      return .refused(.permanent(413, .requestTooLarge))
    }
    let limits = configuration.limits
    let admitted = limiter.withLock {
      $0.admit(
        [("relay", limits.requestsPerRelay), ("ip:" + client, limits.requestsPerClient)], now: now)
    }
    guard admitted else { return .refused(.retryable(429, .rateLimited, retryAfter: 60)) }
    let ticket = inFlight.enter(upload: upload) { [self] cut in
      if cut > 0 { log("in flight: the oldest upload was cut off (408) for a new request") }
    }
    guard let ticket else { return .refused(.retryable(503, .relayBusy, retryAfter: 1)) }
    return .admitted(ticket)
  }

  private func decide(
    _ request: HTTPServerRequest, now: Int64, client: String, parsed: inout RelaySendRequest?
  ) async -> RelayAnswer {
    // A request that met the upload gate passed steps 3–7 with its head and holds its slot
    // until answered; any other takes them now and gives the slot back when decided.
    let ticket: HTTPRequestTicket
    if let admitted = request.ticket {
      ticket = admitted
    } else {
      switch admit(
        request.head.headers, bodySize: request.body.count, now: now, client: client, upload: nil)
      {
      case .admitted(let admitted): ticket = admitted
      case .refused(let answer): return answer
      }
    }
    defer { ticket.end() }
    let limits = configuration.limits
    guard let send = SendValidator.parse(request.body) else {
      return .permanent(400, .invalidRequest)
    }
    parsed = send
    guard configuration.environments.contains(send.environment) else {
      return .permanent(400, .environmentDisabled)
    }
    guard send.expiresAt <= now + 1800 else { return .permanent(400, .invalidRequest) }
    guard send.expiresAt > now else {
      return RelayAnswer(status: 200, verdict: RelayVerdict(outcome: .expired, reason: .expired))
    }
    let deviceKey = "device:\(send.environment.rawValue):\(send.deviceToken)"
    guard limiter.withLock({ $0.admit([(deviceKey, limits.sendsPerDevice)], now: now) }) else {
      return .retryable(429, .rateLimited, retryAfter: 60)
    }
    let delivery = RelayDelivery(
      request: send, topic: configuration.topic, body: Data(request.body), clientAddress: client,
      receivedAt: now, envelopeIsPlain: true)
    guard delivery.payload.count <= configuration.maximumPayloadSize else {
      return .permanent(200, .payloadTooLarge)
    }
    let answer = await providerCall.deliver(delivery, to: provider)
    return RelayAnswer(
      status: 200,
      verdict: answer?.verdict
        ?? RelayVerdict(outcome: .retryable, reason: .networkUnavailable))
  }

  /// The per-relay and per-IP limits of `/v1/send`, applied to `POST /v1/devices` too, so
  /// tokens cannot be minted faster than sends.
  func admitDeviceRequest(_ request: HTTPServerRequest) -> Bool {
    let client = Self.clientAddress(request.connection)
    let limits = configuration.limits
    let now = clock.now()
    return limiter.withLock {
      $0.admit(
        [("relay", limits.requestsPerRelay), ("ip:" + client, limits.requestsPerClient)], now: now)
    }
  }

  /// `application/json`, any case, parameters (`; charset=utf-8`) allowed.
  static func isJSON(_ contentType: String?) -> Bool {
    guard let contentType else { return false }
    return MediaType.isJSON(contentType)
  }

  // MARK: - Captures

  /// Logs the answer and keeps a capture when captures are on (nothing is built when off).
  private func record(
    now: Int64, client: String, body: [UInt8], request: RelaySendRequest?, answer: RelayAnswer
  ) {
    if configuration.log != nil {
      log(
        "POST /v1/send \(answer.status) \(answer.verdict.outcome.rawValue)/"
          + "\(answer.verdict.reason.rawValue)")
    }
    guard configuration.maximumCapturedRequests > 0 else { return }
    let capture = RelayCapture(
      receivedAt: now, clientAddress: client, body: Data(body), request: request,
      status: answer.status, verdict: answer.verdict)
    captured.withLock { $0.append(capture) }
  }

  func captures() -> [RelayCapture] { captured.withLock { $0.elements } }

  func clearCaptures() { captured.withLock { $0.removeAll() } }

  static func reason(_ status: Int) -> String {
    switch status {
    case 101: return "Switching Protocols"
    case 200: return "OK"
    case 201: return "Created"
    case 204: return "No Content"
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 408: return "Request Timeout"
    case 413: return "Content Too Large"
    case 415: return "Unsupported Media Type"
    case 429: return "Too Many Requests"
    case 503: return "Service Unavailable"
    default: return status >= 500 ? "Internal Server Error" : "Status"
    }
  }
}
