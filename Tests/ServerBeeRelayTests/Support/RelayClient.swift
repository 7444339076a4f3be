import Foundation
import ServerBeeTestHarness

/// The shared loopback client, with the relay's device-stream handshake.
typealias RelayClient = LoopbackClient

extension LoopbackClient {
  /// Sends a WebSocket upgrade for the device stream; returns the response.
  func subscribe(token: String?, environment: String? = nil) async -> Response? {
    var headers: [(String, String)] = [
      ("Upgrade", "websocket"), ("Connection", "Upgrade"),
      ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
    ]
    if let token { headers.append(("X-ServerBee-Device-Token", token)) }
    if let environment { headers.append(("X-ServerBee-Environment", environment)) }
    request("GET", "/v1/devices/stream", headers: headers)
    return await response()
  }
}
