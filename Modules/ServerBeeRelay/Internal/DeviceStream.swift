import ServerBeeModels
import ServerBeeServerKit
import ServerBeeSocketTransport
import ServerBeeTransport

/// The device routes of ``LocalDevicePushProvider``: `GET /v1/devices/stream` (WebSocket) and
/// `DELETE /v1/devices/{token}`, both naming the device in `X-ServerBee-Device-Token`.
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
    // Known before the 101 goes out, so a send that races the subscribe is kept as pending
    // and delivered by `attach` instead of answering BadDeviceToken.
    devices.register(deviceToken: token, environment: environment)
    guard
      let socket = try? await request.acceptWebSocket(
        options: WebSocketServerOptions(maxMessageSize: Self.maximumInbound))
    else { return }
    let (id, pending) = devices.attach(
      deviceToken: token, environment: environment, connection: socket)
    core.log("device stream opened (\(environment.rawValue))")
    if let pending { _ = try? await socket.send(.text(pending)) }
    do {
      for try await _ in socket.inbound {}
    } catch {}
    devices.detach(deviceToken: token, id: id)
    core.log("device stream closed")
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
