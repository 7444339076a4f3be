import Foundation
import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

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
  /// Sends one catalogue route through the one request path (ServerBeeRoutes' `RouteClient`)
  /// and returns the answer whatever its status: the auth routes give several statuses a
  /// meaning of their own. Transport failures become `.networkFailure`; cancellation and
  /// AuthSession's own errors pass through.
  /// - Parameters:
  ///   - route: The catalogue route.
  ///   - path: Its path values.
  ///   - server: The server to send it to.
  ///   - body: The request body.
  ///   - bearer: An explicit bearer token (logout's push unregistration).
  ///   - authorized: Send through ``AuthorizedHTTPTransport`` (only to the signed-in server;
  ///     a 401 of the middleware refreshes once and retries once).
  /// - Returns: The answer, whatever its status.
  /// - Throws: ``AuthSessionError`` (`.networkFailure`, `.invalidRequest`, or the decorator's
  ///   own), or `CancellationError`.
  func exchange<Path, Request, Response>(
    _ route: APIRoute<Path, Request, Response>, _ path: Path, on server: ServerURL,
    body: Request, bearer: String? = nil, authorized: Bool = false
  ) async throws -> HTTPResponse {
    let transport: any HTTPTransport =
      authorized ? AuthorizedHTTPTransport(wrapping: self.transport, client: self) : self.transport
    let headers: HTTPHeaders = bearer.map { ["authorization": "Bearer " + $0] } ?? [:]
    do {
      return try await RouteClient(server: server, transport: transport)
        .exchange(route, path, body: body, headers: headers)
    } catch let error as ServerBeeRoutesError {
      if let own = error.underlying as? AuthSessionError { throw own }
      if error.code == .invalidArgument {
        throw AuthSessionError(.invalidRequest, error.message, underlying: error)
      }
      if Task.isCancelled { throw CancellationError() }
      throw AuthSessionError(
        .networkFailure, "\(route.template.text): the server could not be reached",
        underlying: error.underlying)
    }
  }

  /// ``exchange(_:_:on:body:bearer:authorized:)`` for a route without path values.
  func exchange<Request, Response>(
    _ route: APIRoute<NoPath, Request, Response>, on server: ServerURL, body: Request,
    bearer: String? = nil, authorized: Bool = false
  ) async throws -> HTTPResponse {
    try await exchange(
      route, NoPath(), on: server, body: body, bearer: bearer, authorized: authorized)
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
    case .unauthorized, .refused: code = .invalidCredentials
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

  /// Validates a token response's identifiers (Protocol/Auth.md §4: a non-UUID session id is
  /// invalid).
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
    let path = RouteCatalogue.Auth.revoke.template.text
    let response = try await exchange(RouteCatalogue.Auth.revoke, on: server, body: body)
    switch response.status {
    case 200:
      let outcome = try decodePayload(RevokeOutcome.self, from: response, path: path)
      guard outcome == .ok || outcome == .alreadyAbsent else {
        throw AuthSessionError(
          .invalidResponse, "\(path): unknown outcome", httpStatus: 200)
      }
      return outcome
    case 401, 403:
      throw AuthSessionError(
        .revocationRejected, "\(path): the server refused the deletion credential",
        httpStatus: response.status)
    default:
      throw Self.failure(response, path: path)
    }
  }

  /// Seconds of a duration, as a `TimeInterval`.
  static func seconds(_ duration: Duration) -> TimeInterval {
    let (seconds, attoseconds) = duration.components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }
}
