import Foundation
import ServerBeeModels
import ServerBeeServerKit
import ServerBeeSocketTransport
import ServerBeeTransport

/// The control API under `/__relay/`, guarded by `X-Relay-Token` (else a bare 401). Routes are
/// documented in the catalog (ServerBeeRelay.md, "Control API").
struct ControlAPI {
  let core: RelayCore

  func handle(_ request: HTTPServerRequest, path: String) async {
    guard request.head.headers["x-relay-token"] == core.controlToken else {
      await bare(request, 401)
      return
    }
    let segments = path.split(separator: "/").dropFirst().map(String.init)
    let method = request.head.method
    if segments.first == "script" {
      guard let scripted = core.scripted else { return await bare(request, 404) }
      await script(request, Array(segments.dropFirst()), scripted)
      return
    }
    switch (method, segments.joined(separator: "/")) {
    case ("GET", "clock"), ("POST", "clock/advance"), ("POST", "clock/set"):
      await clock(request, segments.last ?? "")
    case ("GET", "requests"):
      await json(request, Self.capturesJSON(core.captures()))
    case ("DELETE", "requests"):
      core.clearCaptures()
      core.scripted?.clearReceived()
      await bare(request, 204)
    case ("GET", "deliveries"):
      guard let scripted = core.scripted else { return await bare(request, 404) }
      await json(request, Self.deliveriesJSON(scripted.received()))
    case ("GET", "devices"):
      guard let devices = core.devices else { return await bare(request, 404) }
      await json(request, Self.devicesJSON(devices.devices()))
    default:
      await bare(request, 404)
    }
  }

  /// `GET /__relay/clock`, `POST /__relay/clock/advance {"seconds":N}` (N ≥ 0, whole) and
  /// `POST /__relay/clock/set {"now":T}` (T ≥ 0, whole Unix seconds), each answering
  /// `{"now":T}`; 404 when the relay's clock cannot be moved.
  private func clock(_ request: HTTPServerRequest, _ action: String) async {
    let clock = core.clock
    if action != "clock" {
      guard let setNow = clock.setNow else { return await bare(request, 404) }
      let body = try? WireJSON.decode(JSONValue.self, from: Data(request.body))
      let key = action == "advance" ? "seconds" : "now"
      guard case .number(let number)? = body?[key], number.isFinite, number.rounded() == number,
        number >= 0, number <= 1e15
      else { return await invalid(request) }
      setNow(action == "advance" ? clock.now() + Int64(number) : Int64(number))
    }
    await json(request, Array(#"{"now":\#(clock.now())}"#.utf8))
  }

  private func script(
    _ request: HTTPServerRequest, _ rest: [String], _ scripted: ScriptedPushProvider
  ) async {
    let body = try? WireJSON.decode(JSONValue.self, from: Data(request.body))
    let method = request.head.method
    let token = rest.count == 2 && rest[0] == "devices" ? rest[1] : nil
    switch (method, token == nil ? rest.joined(separator: "/") : "devices/*") {
    case ("PUT", "devices/*"):
      guard let token else { return await bare(request, 404) }
      guard SendValidator.isDeviceToken(token), let answer = body.flatMap(Self.answer) else {
        return await invalid(request)
      }
      scripted.script(deviceToken: token, answer)
    case ("DELETE", "devices/*"):
      guard let token else { return await bare(request, 404) }
      scripted.removeScript(deviceToken: token)
    case ("POST", "queue"):
      guard case .array(let items)? = body?["answers"] else { return await invalid(request) }
      let answers = items.compactMap(Self.answer)
      guard answers.count == items.count else { return await invalid(request) }
      scripted.enqueue(answers)
    case ("PUT", "default"):
      guard let answer = body.flatMap(Self.answer) else { return await invalid(request) }
      scripted.setDefault(answer)
    case ("POST", "release"):
      scripted.release()
    case ("DELETE", ""):
      scripted.clearScripts()
    default:
      return await bare(request, 404)
    }
    await bare(request, 204)
  }

  /// `{"answer":"accepted"|"unregistered"|"bad_device_token"|"rejected"|"rate_limited"|
  /// "server_error"|"network_failure"|"malformed_reply", "status":Int?, "reason":String?,
  /// "delay_ms":Int?, "hold":Bool?}`.
  static func answer(_ value: JSONValue) -> ScriptedAnswer? {
    guard let name = value["answer"]?.stringValue else { return nil }
    var status: Int?
    if case .number(let number)? = value["status"], number.rounded() == number,
      (100...599).contains(number)
    {
      status = Int(number)
    }
    let provider: ProviderAnswer
    switch name {
    case "accepted": provider = .accepted
    case "unregistered": provider = .unregistered
    case "bad_device_token": provider = .badDeviceToken
    case "rejected":
      guard let status, let reason = value["reason"]?.stringValue else { return nil }
      provider = .rejected(status: status, reason: reason)
    case "rate_limited": provider = .rateLimited
    case "server_error": provider = .serverError(status: status ?? 500)
    case "network_failure": provider = .networkFailure
    case "malformed_reply": provider = .malformedReply
    default: return nil
    }
    var delay = Duration.zero
    if let raw = value["delay_ms"] {
      guard case .number(let number) = raw, number >= 0, number <= 3_600_000 else { return nil }
      delay = .milliseconds(Int64(number))
    }
    var hold = false
    if let raw = value["hold"] {
      guard case .bool(let flag) = raw else { return nil }
      hold = flag
    }
    return ScriptedAnswer(provider, delay: delay, holdsUntilReleased: hold)
  }

  // MARK: - JSON

  /// Each capture with its body embedded verbatim when it is JSON (else `null`).
  static func capturesJSON(_ captures: [RelayCapture]) -> [UInt8] {
    var out: [UInt8] = Array("[".utf8)
    for (index, capture) in captures.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out += Array(#"{"received_at":\#(capture.receivedAt),"client_ip":"#.utf8)
      out += encode(JSONValue.string(capture.clientAddress))
      out += Array(#","status":\#(capture.status),"verdict":"#.utf8)
      out += RelayAnswer.encode(capture.verdict)
      out += Array(#","request":"#.utf8)
      out += verbatim(capture.body)
      out.append(UInt8(ascii: "}"))
    }
    out.append(UInt8(ascii: "]"))
    return out
  }

  static func deliveriesJSON(_ deliveries: [RelayDelivery]) -> [UInt8] {
    var out: [UInt8] = Array("[".utf8)
    for (index, delivery) in deliveries.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      let headers = JSONValue.object(
        delivery.headers.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
      out += Array(#"{"received_at":\#(delivery.receivedAt),"client_ip":"#.utf8)
      out += encode(.string(delivery.clientAddress))
      out += Array(#","headers":"#.utf8) + encode(headers)
      out += Array(#","payload":"#.utf8) + Array(delivery.payload)
      out += Array(#","request":"#.utf8) + verbatim(delivery.body)
      out.append(UInt8(ascii: "}"))
    }
    out.append(UInt8(ascii: "]"))
    return out
  }

  static func devicesJSON(_ devices: [LocalDevicePushProvider.LocalDevice]) -> [UInt8] {
    encode(
      .array(
        devices.map { device in
          .object([
            ("device_token", .string(device.deviceToken)),
            ("environment", .string(device.environment.rawValue)),
            ("registered", .bool(device.isRegistered)),
            ("online", .bool(device.isOnline)),
            ("pending", .bool(device.hasPending)),
            ("pending_count", .number(Double(device.pendingCount))),
          ])
        }))
  }

  private static func verbatim(_ body: Data) -> [UInt8] {
    let isJSON =
      (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) != nil
    return isJSON ? Array(body) : Array("null".utf8)
  }

  private static func encode(_ value: JSONValue) -> [UInt8] {
    (try? WireJSON.encode(value)).map(Array.init) ?? Array("null".utf8)
  }

  // MARK: - Answers

  private func json(_ request: HTTPServerRequest, _ body: [UInt8]) async {
    await request.respond(
      HTTPResponseHead(
        status: 200, reason: "OK",
        headers: ["content-type": "application/json", "cache-control": "no-store"]),
      body: body)
  }

  private func invalid(_ request: HTTPServerRequest) async {
    await request.respond(
      HTTPResponseHead(
        status: 400, reason: "Bad Request", headers: ["content-type": "application/json"]),
      body: Array(#"{"error":"invalid control request"}"#.utf8))
  }

  private func bare(_ request: HTTPServerRequest, _ status: Int) async {
    await request.respond(
      HTTPResponseHead(
        status: status, reason: RelayCore.reason(status), headers: ["cache-control": "no-store"]))
  }
}
