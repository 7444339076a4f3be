import Foundation
import ServerBeeKit
import ServerBeeSimulator
import Testing

/// HTTP to a simulator, where chosen paths fail as if the network dropped: before the request
/// left (`refused`) or after the server handled it (`answerLost`).
final class SimulatorLink: HTTPTransport {
  let simulator: Simulator
  let refused = Locked<Set<String>>([])
  let answerLost = Locked<Set<String>>([])
  /// Every request fails as if the server were down.
  let offline = Locked(false)
  private let forward: @Sendable (HTTPRequest) async throws -> HTTPResponse

  /// In process, without sockets.
  init(_ simulator: Simulator) {
    self.simulator = simulator
    forward = { await simulator.handle($0) }
  }

  /// Over `transport`, to the started `simulator`.
  init(_ simulator: Simulator, over transport: any HTTPTransport) {
    self.simulator = simulator
    forward = { try await transport.send($0) }
  }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let path = request.url.path
    let lost = ServerBeeTransportError(.connectionLost, "the connection dropped")
    if offline.withLock({ $0 }) || refused.withLock({ $0.contains(path) }) { throw lost }
    let response = try await forward(request)
    if answerLost.withLock({ $0.contains(path) }) { throw lost }
    return response
  }

  /// The simulator's control API: `method path` with an empty JSON object.
  func control(_ method: HTTPMethod, _ path: String) async -> HTTPResponse {
    await simulator.handle(
      HTTPRequest(
        method: method, url: URL(fileURLWithPath: "/").appendingPathComponent(path),
        headers: ["x-simulator-token": simulator.controlToken, "content-type": "application/json"],
        body: Data("{}".utf8)))
  }

  /// The ids of the account's sessions as the server lists them (through an API key, not a
  /// client under test).
  func sessionIDs(of userID: String) async throws -> [String] {
    let key = await control(.post, "/__simulator/users/\(userID)/api-key")
    let apiKey = try #require(
      try WireJSON.decode(JSONValue.self, from: key.body)["api_key"]?.stringValue)
    let answer = await simulator.handle(
      HTTPRequest(
        url: URL(fileURLWithPath: "/api/mobile/auth/devices"), headers: ["x-api-key": apiKey]))
    return try APIResponse<[MobileDevice]>.payload(status: answer.status, body: answer.body)
      .map(\.id)
  }
}
