import Foundation
public import ServerBeeTransport

/// An `AccessTokenProvider` that hands out scripted tokens and counts the calls.
///
/// ```swift
/// let tokens = StaticAccessTokenProvider("t1", "t2")   // first call "t1", then "t2" forever
/// let client = MetricsStreamClient(tokens: tokens, …)
/// #expect(tokens.callCount == 2)
/// ```
public final class StaticAccessTokenProvider: AccessTokenProvider, @unchecked Sendable {
  // @unchecked: the mutable state is behind `lock`.
  private let lock = NSLock()
  private var tokens: [String]
  private var failure: (any Error & Sendable)?
  private var calls = 0

  /// Creates a provider; the last token repeats once the others are used up.
  /// - Parameter tokens: The tokens to return, in order (at least one).
  public init(_ tokens: String...) {
    self.tokens = tokens.isEmpty ? ["test-access-token"] : tokens
  }

  /// Makes later calls throw `error` (for example a revoked session).
  /// - Parameter error: The error.
  public func fail(with error: any Error & Sendable) { lock.withLock { failure = error } }

  /// How many times ``validAccessToken()`` was called.
  public var callCount: Int { lock.withLock { calls } }

  /// The next scripted token.
  /// - Returns: The token.
  /// - Throws: The error set by ``fail(with:)``.
  public func validAccessToken() async throws -> String {
    let next = lock.withLock { () -> (token: String, error: (any Error & Sendable)?) in
      calls += 1
      let token = tokens.count > 1 ? tokens.removeFirst() : tokens[0]
      return (token, self.failure)
    }
    if let error = next.error { throw error }
    return next.token
  }
}
