/// Supplies a currently valid access token to modules that authenticate requests.
///
/// Modules above the transport take `any AccessTokenProvider` instead of importing the session
/// module; the session client conforms to it and a test passes a fixed token.
///
/// ```swift
/// let token = try await provider.validAccessToken()
/// var headers = provider.credentialHeaders(for: token)  // Authorization: Bearer …
/// ```
public protocol AccessTokenProvider: Sendable {
  /// A currently valid access token, refreshing it first if needed.
  /// - Returns: The access token.
  /// - Throws: The provider's error when no valid token can be obtained.
  func validAccessToken() async throws -> String

  /// A token to use after the server rejected `rejected` (an HTTP 401, or the live stream's
  /// close code 4001): the provider refreshes if `rejected` is still its current token, so the
  /// answer is never the token the server just refused.
  ///
  /// The default implementation returns ``validAccessToken()``; providers that can refresh
  /// should implement it.
  /// - Parameter rejected: The token the server refused.
  /// - Returns: A different, currently valid token.
  /// - Throws: The provider's error when no valid token can be obtained.
  func accessToken(afterRejectionOf rejected: String) async throws -> String

  /// The headers that present `token` to the server. The default is
  /// `Authorization: Bearer <token>` (a mobile session); an API key presents itself as
  /// `X-API-Key` (Protocol/README.md §9, Protocol/LiveStream.md §1: REST and the live stream take
  /// both).
  /// - Parameter token: A token from this provider.
  /// - Returns: The headers to send.
  func credentialHeaders(for token: String) -> HTTPHeaders
}

extension AccessTokenProvider {
  /// Returns ``validAccessToken()``.
  /// - Parameter rejected: The token the server refused (ignored).
  /// - Returns: A currently valid token.
  /// - Throws: The provider's error.
  public func accessToken(afterRejectionOf rejected: String) async throws -> String {
    try await validAccessToken()
  }

  /// `Authorization: Bearer <token>`.
  /// - Parameter token: The access token.
  /// - Returns: The header.
  public func credentialHeaders(for token: String) -> HTTPHeaders {
    HTTPHeaders(["Authorization": "Bearer \(token)"])
  }
}
