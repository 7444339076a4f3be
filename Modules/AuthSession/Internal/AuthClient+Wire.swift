import Foundation
import ServerBeeModels
import ServerBeeTransport

/// Auth API paths (wire contract v1 §2, wire contract v2 §2).
enum AuthPath {
  static let login = "/api/mobile/auth/login"
  static let refresh = "/api/mobile/auth/refresh"
  static let pairRedeem = "/api/mobile/auth/pair"
  static let logout = "/api/mobile/auth/logout"
  static let revoke = "/api/mobile/auth/revoke"
  static let recover = "/api/mobile/auth/recover"
  static let pushUnregister = "/api/mobile/push/unregister"
  /// The signed-in account's mobile sessions (wire contract v1 §2.8); `/{id}` revokes one (§2.9).
  static let devices = "/api/mobile/auth/devices"
}

/// The fields of a `GET /api/mobile/auth/devices` entry the sign-in sweep needs. Decoding only
/// these keeps a change in the other fields (times, names) from blocking the cleanup.
struct SessionListEntry: Decodable, Sendable {
  var id: String
  var installationID: String

  private enum CodingKeys: String, CodingKey {
    case id
    case installationID = "installation_id"
  }
}

extension AuthClient {
  /// Sends one JSON POST. Transport failures become `.networkFailure`;
  /// cancellation passes through. Every status is returned.
  func post(
    _ path: String, on server: ServerURL, body: (some Encodable)?, bearer: String? = nil
  ) async throws -> HTTPResponse {
    var headers: HTTPHeaders = ["accept": "application/json"]
    var data = Data()
    if let body {
      headers["content-type"] = "application/json"
      data = try WireJSON.encode(body)
    }
    if let bearer { headers["authorization"] = "Bearer " + bearer }
    let request = HTTPRequest(
      method: .post, url: server.endpoint(path), headers: headers, body: data)
    do {
      return try await transport.send(request)
    } catch let error as CancellationError {
      throw error
    } catch {
      if Task.isCancelled { throw CancellationError() }
      throw AuthSessionError(
        .networkFailure, "\(path): the server could not be reached", underlying: error)
    }
  }

  /// Sends one request with the login's bearer token through ``AuthorizedHTTPTransport`` (only to
  /// the signed-in server; a 401 refreshes once and retries once). Transport failures become
  /// `.networkFailure`; cancellation and AuthSession errors pass through.
  func sendAuthorized(_ method: HTTPMethod, _ path: String, on server: ServerURL) async throws
    -> HTTPResponse
  {
    let request = HTTPRequest(
      method: method, url: server.endpoint(path), headers: ["accept": "application/json"])
    do {
      return try await AuthorizedHTTPTransport(wrapping: transport, client: self).send(request)
    } catch let error as CancellationError {
      throw error
    } catch let error as AuthSessionError {
      throw error
    } catch {
      if Task.isCancelled { throw CancellationError() }
      throw AuthSessionError(
        .networkFailure, "\(path): the server could not be reached", underlying: error)
    }
  }

  /// Decodes a 200 `{"data": …}` body; a body that does not decode is
  /// `.invalidResponse`.
  func decodePayload<Payload: Decodable>(
    _ type: Payload.Type, from response: HTTPResponse, path: String
  ) throws -> Payload {
    do {
      return try WireJSON.decode(APIResponse<Payload>.self, from: response.body).data
    } catch {
      throw AuthSessionError(
        .invalidResponse, "\(path): the answer could not be decoded", httpStatus: 200,
        underlying: error)
    }
  }

  /// The typed error for a non-200 answer, using the mapping shared by every auth route.
  /// Callers override the statuses whose meaning depends on the route first.
  static func failure(_ response: HTTPResponse, path: String) -> AuthSessionError {
    let failure = APIFailure(status: response.status, body: response.body)
    let code: AuthSessionError.Code
    switch failure.kind {
    case .unauthorized: code = .invalidCredentials
    case .mustChangePassword: code = .mustChangePassword
    case .notPermitted: code = .notPermitted
    case .twoFactorRequired: code = .twoFactorRequired
    case .routeNotFound: code = .unsupportedByServer
    case .badRequest, .invalidRequest: code = .invalidRequest
    case .rateLimited: code = .rateLimited
    case .conflict: code = .unresolvedIdentity
    case .notFound, .serverError, .other: code = .serverError
    }
    let detail =
      (300..<400).contains(response.status)
      ? "a redirect was refused" : "the server answered \(failure.description)"
    return AuthSessionError(
      code, "\(path): \(detail)", httpStatus: response.status, underlying: failure)
  }

  /// Validates a token response's identifiers (wire contract v2 §2.4: a non-UUID session id is invalid).
  static func validate(_ tokens: MobileTokenResponse, path: String) throws {
    let valid =
      !tokens.accessToken.isEmpty && !tokens.refreshToken.isEmpty && !tokens.user.id.isEmpty
      && tokens.accessExpiresInSeconds > 0 && (tokens.mobileSessionID.map(isUUID) ?? true)
    guard valid else {
      throw AuthSessionError(
        .invalidResponse, "\(path): the token answer is incomplete or malformed", httpStatus: 200)
    }
  }

  /// Sends `POST /revoke` and reads the outcome. Returns the outcome for a 200 with `ok` or
  /// `already_absent`; throws the typed failure otherwise (401/403 →
  /// `.revocationRejected`).
  func revoke(
    on server: ServerURL, installationID: String, credential: String, expectedSessionID: String?
  ) async throws -> RevokeOutcome {
    let body = RevokeRequest(
      installationID: installationID, revocationToken: credential,
      expectedSessionID: expectedSessionID)
    let response = try await post(AuthPath.revoke, on: server, body: body)
    switch response.status {
    case 200:
      let outcome = try decodePayload(RevokeOutcome.self, from: response, path: AuthPath.revoke)
      guard outcome == .ok || outcome == .alreadyAbsent else {
        throw AuthSessionError(
          .invalidResponse, "\(AuthPath.revoke): unknown outcome", httpStatus: 200)
      }
      return outcome
    case 401, 403:
      throw AuthSessionError(
        .revocationRejected, "\(AuthPath.revoke): the server refused the deletion credential",
        httpStatus: response.status)
    default:
      throw Self.failure(response, path: AuthPath.revoke)
    }
  }

  /// Seconds of a duration, as a `TimeInterval`.
  static func seconds(_ duration: Duration) -> TimeInterval {
    let (seconds, attoseconds) = duration.components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }
}
