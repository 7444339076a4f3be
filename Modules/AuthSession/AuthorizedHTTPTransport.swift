import Foundation
import ServerBeeModels
public import ServerBeeTransport

/// An `HTTPTransport` decorator that signs requests with the session's bearer token and, on a
/// 401, refreshes once and retries once.
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
    guard Self.isSameOrigin(request.url, server.url) else {
      throw AuthSessionError(
        .foreignHost, "the bearer token is only sent to the signed-in server")
    }
    let token = try await client.validAccessToken()
    let first = try await base.send(Self.signed(request, with: token))
    guard first.status == 401 else { return first }
    let fresh = try await client.accessToken(afterRejectionOf: token)
    return try await base.send(Self.signed(request, with: fresh))
  }

  private static func signed(_ request: HTTPRequest, with token: String) -> HTTPRequest {
    var signed = request
    signed.headers["authorization"] = "Bearer " + token
    return signed
  }

  private static func isSameOrigin(_ url: URL, _ server: URL) -> Bool {
    func origin(_ url: URL) -> (String, String, Int)? {
      guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
        return nil
      }
      return (scheme, host, url.port ?? (scheme == "https" ? 443 : 80))
    }
    guard let left = origin(url), let right = origin(server) else { return false }
    return left == right
  }
}
