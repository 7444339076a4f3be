import AuthSession
import Foundation
import ServerBeeModels
import ServerBeeTransport

/// The REST calls the commands make, through the signed transport.
struct ServerAPI: Sendable {
  /// The signed-in server.
  let server: ServerURL
  /// A transport that adds the bearer token.
  let transport: any HTTPTransport

  /// `GET /api/servers`: the configuration of every server.
  func serverConfigurations() async throws -> [ServerResponse] {
    try await get("/api/servers")
  }

  /// `GET /api/alert-events?limit=N`: recent alert events, newest first.
  func alertEvents(limit: Int) async throws -> [AlertEvent] {
    try await get("/api/alert-events?limit=\(limit)")
  }

  /// `GET /api/mobile/auth/devices`: the account's mobile sessions.
  func devices() async throws -> [MobileDevice] {
    try await get("/api/mobile/auth/devices")
  }

  private func get<T: Decodable>(_ path: String) async throws -> T {
    let response = try await transport.send(HTTPRequest(url: server.endpoint(path)))
    return try APIResponse<T>.payload(status: response.status, body: response.body)
  }
}
