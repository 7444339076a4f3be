/// Supplies a currently valid access token to modules that authenticate requests.
///
/// Modules above the transport take `any AccessTokenProvider` instead of importing the session
/// module; the session client conforms to it and a test passes a fixed token.
///
/// ```swift
/// let token = try await provider.validAccessToken()
/// headers["Authorization"] = "Bearer \(token)"
/// ```
public protocol AccessTokenProvider: Sendable {
  /// A currently valid access token, refreshing it first if needed.
  /// - Returns: The access token.
  /// - Throws: The provider's error when no valid token can be obtained.
  func validAccessToken() async throws -> String
}
