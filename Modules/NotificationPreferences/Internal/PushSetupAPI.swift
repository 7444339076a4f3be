import Foundation
import ServerBeeModels
import ServerBeeTransport

/// The push setup routes (wire contract v2 §3.3–§3.6) over any transport, with the answers
/// mapped to ``NotificationPreferencesError`` once, here.
struct PushSetupAPI: Sendable {
  let transport: any HTTPTransport

  static let settingsPath = "/api/mobile/push/settings"
  static let registerPath = "/api/mobile/push/encrypted-register"
  static let testPath = "/api/mobile/push/test"
  static let legacyRegisterPath = "/api/mobile/push/register"

  func settings(server: ServerURL) async throws -> PushSetupResponse {
    try await exchange(HTTPRequest(method: .get, url: server.endpoint(Self.settingsPath)))
  }

  func put(_ update: PushSettingsUpdate, server: ServerURL) async throws -> PushSetupResponse {
    try await exchange(try Self.jsonRequest(.put, server.endpoint(Self.settingsPath), update))
  }

  func register(_ request: EncryptedRegisterRequest, server: ServerURL) async throws
    -> PushSetupResponse
  {
    try await exchange(try Self.jsonRequest(.post, server.endpoint(Self.registerPath), request))
  }

  func sendTest(_ request: TestPushRequest, server: ServerURL) async throws -> TestPushResponse {
    try await exchange(try Self.jsonRequest(.post, server.endpoint(Self.testPath), request))
  }

  func testStatus(eventID: String, server: ServerURL) async throws -> TestPushResponse {
    try await exchange(
      HTTPRequest(method: .get, url: server.endpoint(Self.testPath + "/" + eventID.lowercased())))
  }

  /// `POST /api/mobile/push/register {"device_token"}` (wire contract v1 §2.10): `"ok"`.
  func legacyRegister(deviceToken: String, server: ServerURL) async throws {
    let _: String = try await exchange(
      try Self.jsonRequest(
        .post, server.endpoint(Self.legacyRegisterPath), ["device_token": deviceToken]))
  }

  private static func jsonRequest(_ method: HTTPMethod, _ url: URL, _ body: some Encodable)
    throws -> HTTPRequest
  {
    do {
      return HTTPRequest(
        method: method, url: url, headers: ["content-type": "application/json"],
        body: try WireJSON.encode(body))
    } catch {
      throw NotificationPreferencesError(.invalidRequest, "the request could not be encoded")
    }
  }

  private func exchange<Payload: Decodable>(_ request: HTTPRequest) async throws -> Payload {
    let response: HTTPResponse
    do {
      response = try await transport.send(request)
    } catch let error as CancellationError {
      throw error
    } catch let error as NotificationPreferencesError {
      throw error
    } catch {
      let reason = (error as? any ServerBeeErrorProtocol).map { ": \($0.message)" } ?? ""
      throw NotificationPreferencesError(
        .transportFailed, "the server could not be reached\(reason)",
        underlying: error as? any Error & Sendable)
    }
    do {
      return try APIResponse<Payload>.payload(status: response.status, body: response.body)
    } catch let failure as APIFailure {
      throw Self.error(for: failure)
    } catch {
      throw NotificationPreferencesError(
        .serverError, "the server's answer could not be read", httpStatus: response.status)
    }
  }

  static func error(for failure: APIFailure) -> NotificationPreferencesError {
    let message = failure.message.map { String($0.prefix(200)) } ?? "HTTP \(failure.status)"
    let code: NotificationPreferencesError.Code
    switch failure.kind {
    case .routeNotFound: code = .unsupportedByServer
    case .conflict: code = .conflict
    case .notPermitted, .mustChangePassword: code = .notPermitted
    case .unauthorized: code = .unauthorized
    case .badRequest, .invalidRequest, .twoFactorRequired: code = .invalidRequest
    case .notFound: code = .testNotFound
    default: code = .serverError
    }
    let text = code == .unsupportedByServer ? "this server has no encrypted push setup" : message
    return NotificationPreferencesError(code, text, httpStatus: failure.status)
  }
}
