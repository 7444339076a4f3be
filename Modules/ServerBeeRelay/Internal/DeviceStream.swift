import ServerBeeModels
import ServerBeeServerKit
import ServerBeeSocketTransport
import ServerBeeTransport

/// The device routes of ``LocalDevicePushProvider``: `POST /v1/devices` (a new token),
/// `GET /v1/devices/stream` (WebSocket) and `DELETE /v1/devices/{token}`, the last two naming
/// the device in `X-ServerBee-Device-Token`.
struct DeviceStream {
  let core: RelayCore
  let devices: LocalDevicePushProvider

  /// The largest message a device may send (they are read and ignored).
  static let maximumInbound = 4096

  func subscribe(_ request: HTTPServerRequest) async {
    let headers = request.head.headers
    guard let token = headers["x-serverbee-device-token"],
      SendValidator.isDeviceToken(token)
    else {
      await core.respond(request, .permanent(400, .invalidRequest))
      return
    }
    let environment = PushEnvironment(rawValue: headers["x-serverbee-environment"] ?? "sandbox")
    guard environment == .sandbox || environment == .production else {
      await core.respond(request, .permanent(400, .invalidRequest))
      return
    }
    // Known before the 101 goes out, so a send that races the subscribe is held and delivered
    // below instead of answering BadDeviceToken. A self-chosen token is registered here (the
    // older way); at the device cap a new one is refused like `POST /v1/devices`.
    guard devices.register(deviceToken: token, environment: environment) else {
      core.log("device stream refused: device limit reached")
      await core.respond(request, .retryable(503, .deviceLimitReached, retryAfter: 60))
      return
    }
    // permessage-deflate is declined (the DocC overview, "Local devices"): each push is one small message of
    // mostly base64 ciphertext, which deflate shrinks by about two fifths at the cost of about
    // 130 k instructions a push here (over 40 % of the relay's work per push) and an inflate
    // on the device.
    guard
      let socket = try? await request.acceptWebSocket(
        options: WebSocketServerOptions(maxMessageSize: Self.maximumInbound, compression: false))
    else { return }
    guard let id = await drainThenAttach(token: token, environment: environment, socket: socket)
    else { return }
    core.log("device stream opened (\(environment.rawValue))")
    do {
      for try await _ in socket.inbound {}
    } catch {}
    devices.detach(deviceToken: token, id: id)
    core.log("device stream closed")
  }

  /// Sends what was held for the device, oldest first, until nothing is left, then registers
  /// the stream; `nil` when the stream failed first (what was not sent is held again).
  private func drainThenAttach(
    token: String, environment: PushEnvironment, socket: any WebSocketConnection
  ) async -> Int? {
    while true {
      switch devices.attachOrTakePending(
        deviceToken: token, environment: environment, connection: socket)
      {
      case .attached(let id):
        return id
      case .pending(let held):
        for (index, item) in held.enumerated() {
          if (try? await socket.send(.text(item.text))) == nil {
            devices.requeue(deviceToken: token, Array(held[index...]))
            return nil
          }
        }
      }
    }
  }

  /// `POST /v1/devices`: a new token, known (offline) from now on, in the environment of the
  /// optional `X-ServerBee-Environment` header (sandbox by default).
  func provision(_ request: HTTPServerRequest) async {
    let environment = PushEnvironment(
      rawValue: request.head.headers["x-serverbee-environment"] ?? "sandbox")
    guard environment == .sandbox || environment == .production else {
      await core.respond(request, .permanent(400, .invalidRequest))
      return
    }
    guard core.configuration.environments.contains(environment) else {
      await core.respond(request, .permanent(400, .environmentDisabled))
      return
    }
    guard core.admitDeviceRequest(request) else {
      await core.respond(request, .retryable(429, .rateLimited, retryAfter: 60))
      return
    }
    let token: String
    do {
      token = try devices.provision(environment: environment)
    } catch {
      core.log("POST /v1/devices 503 DeviceLimitReached")
      await core.respond(request, .retryable(503, .deviceLimitReached, retryAfter: 60))
      return
    }
    core.log("POST /v1/devices 201 (\(environment.rawValue))")
    let body = #"{"device_token":"\#(token)","environment":"\#(environment.rawValue)"}"#
    await request.respond(
      HTTPResponseHead(
        status: 201, reason: "Created",
        headers: ["content-type": "application/json", "cache-control": "no-store"]),
      body: Array(body.utf8))
  }

  func unregister(_ request: HTTPServerRequest, token: String) async {
    guard SendValidator.isDeviceToken(token),
      request.head.headers["x-serverbee-device-token"] == token
    else {
      await core.respond(request, .permanent(400, .invalidRequest))
      return
    }
    let open = devices.unregister(deviceToken: token)
    core.log("device unregistered")
    await request.respond(
      HTTPResponseHead(status: 204, reason: "No Content", headers: ["cache-control": "no-store"]))
    for connection in open { await connection.close(code: .normalClosure, reason: "unregistered") }
  }
}
