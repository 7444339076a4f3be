import Foundation
import ServerBeeTestHarness

/// The shared loopback client, with the simulator's `/api/ws/servers` handshake.
typealias RawClient = LoopbackClient

extension LoopbackClient {
  /// Sends the WebSocket upgrade for `/api/ws/servers`; returns the HTTP status.
  func upgrade(bearer: String?, cookie: String? = nil) async -> Int {
    var headers: [(String, String)] = [
      ("Upgrade", "websocket"), ("Connection", "Upgrade"),
      ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
    ]
    if let cookie { headers.append(("Cookie", "session_token=\(cookie)")) }
    if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
    request("GET", "/api/ws/servers", headers: headers)
    return await response()?.status ?? 0
  }

  /// Reads frames until a text frame and returns its JSON object.
  func json(timeout: TimeInterval = 5) async -> [String: Any]? {
    guard let text = await text(timeout: timeout) else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
  }
}
