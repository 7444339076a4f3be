import Foundation
import ServerBeeModels
public import ServerBeeTransport

/// An `HTTPTransport` decorator that signs requests with the session's bearer token and, on a
/// 401 from the server's auth middleware, refreshes once and retries once.
///
/// ```swift
/// let api = AuthorizedHTTPTransport(wrapping: URLSessionHTTPTransport(), client: client)
/// let response = try await api.send(HTTPRequest(url: server.endpoint("/api/servers")))
/// ```
///
/// Any number of requests failing with 401 at the same time cause one refresh (see
/// ``AuthClient/accessToken(afterRejectionOf:)``). The token is only ever sent to the signed-in
/// server: a request for another scheme, host or port is refused. The second answer is returned
/// as it is, whatever its status.
///
/// **Which 401 means "session rejected".** The middleware answers a missing, expired or revoked
/// token with 401 and an **empty** body. A 401 that carries the JSON error envelope comes from a
/// route's handler refusing a value (a wrong two-factor code on `POST /api/auth/2fa/enable`,
/// Protocol/AppRoutes.md §2.1): it is returned as it is, with no refresh, so a typo never rotates
/// or ends the session.
public struct AuthorizedHTTPTransport: HTTPTransport {
  private let base: any HTTPTransport
  private let client: any SessionContext

  /// Creates the decorator.
  /// - Parameters:
  ///   - base: The transport that performs the exchanges.
  ///   - client: The session that provides and refreshes tokens: an ``AuthClient``, or any
  ///     other `SessionContext` (a fake in tests).
  public init(wrapping base: any HTTPTransport, client: any SessionContext) {
    self.base = base
    self.client = client
  }

  /// Sends a request with `Authorization: Bearer <token>`; on 401, refreshes once and retries
  /// once.
  /// - Parameter request: The request; an existing `authorization` header is replaced.
  /// - Returns: The response (of the retry, when there was one).
  /// - Throws: ``AuthSessionError`` (`.notSignedIn`,
  ///   `.recoveryRequired`, `.foreignHost`, or a
  ///   refresh error), or the base transport's error.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    guard let server = client.currentIdentity?.server else {
      throw AuthSessionError(.notSignedIn, "no session is signed in")
    }
    guard server.hasSameOrigin(as: request.url) else {
      throw AuthSessionError(
        .foreignHost, "the bearer token is only sent to the signed-in server")
    }
    let token = try await client.validAccessToken()
    let first = try await base.send(Self.signed(request, with: token))
    guard first.status == 401,
      APIFailure(status: first.status, body: first.body).kind == .unauthorized
    else { return first }
    let fresh = try await client.accessToken(afterRejectionOf: token)
    return try await base.send(Self.signed(request, with: fresh))
  }

  private static func signed(_ request: HTTPRequest, with token: String) -> HTTPRequest {
    var signed = request
    signed.headers["authorization"] = "Bearer " + token
    return signed
  }
}
