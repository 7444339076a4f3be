public import ServerBeeModels
public import ServerBeeTransport

/// An API key of a ServerBee account, the credential of bots, dashboards and scripts
/// (Protocol/Account.md §3.2): `serverbee_` followed by 43 base64url characters, sent as the
/// `X-API-Key` header. It never expires and is never refreshed or revoked by the SDK; its holder
/// has its creator's role. Printing it shows only its prefix (`SecretBearing`).
///
/// ```swift
/// let key = try APIKey(ProcessInfo.processInfo.environment["SERVERBEE_API_KEY"] ?? "")
/// let api = ServerBeeAPIClient(server: server, apiKey: key, transport: URLSessionHTTPTransport())
/// ```
public struct APIKey: Hashable, Sendable, SecretBearing {
  /// The key text.
  public let text: String

  /// Checks a key's text: not empty, at most 512 characters, visible ASCII only (anything
  /// else could not travel in a header, or would split it).
  /// - Parameter text: The key as the server issued it.
  /// - Throws: ``ServerBeeAPIError`` `.invalidArgument`.
  public init(_ text: String) throws {
    guard !text.isEmpty, text.utf8.count <= 512,
      text.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
    else {
      throw ServerBeeAPIError(
        .invalidArgument, "an API key is 1 to 512 visible ASCII characters (serverbee_…)")
    }
    self.text = text
  }

  /// `APIKey(serverbee_AbCd…)`: the scheme prefix and 4 characters, never the rest.
  public var redactedSummary: String {
    let shown = text.hasPrefix("serverbee_") ? String(text.prefix(14)) : String(text.prefix(4))
    return "APIKey(\(shown)…)"
  }
}

extension APIKey: AccessTokenProvider {
  /// The key itself: it never expires.
  /// - Returns: The key text.
  public func validAccessToken() async throws -> String { text }

  /// A key is never refreshed: a rejected key stays rejected.
  /// - Parameter rejected: The key the server refused.
  /// - Returns: Never.
  /// - Throws: ``ServerBeeAPIError`` `.unauthorized`.
  public func accessToken(afterRejectionOf rejected: String) async throws -> String {
    throw ServerBeeAPIError(
      .unauthorized, "the server rejected the API key (deleted, or of another server)")
  }

  /// `X-API-Key: <key>`, so the key works wherever a token provider is taken, such as
  /// RealtimeStream's `MetricsStreamClient` (the live stream accepts it, Protocol/LiveStream.md
  /// §1).
  /// - Parameter token: The key text.
  /// - Returns: The header.
  public func credentialHeaders(for token: String) -> HTTPHeaders {
    HTTPHeaders(["X-API-Key": token])
  }
}

/// An `HTTPTransport` decorator that signs each request with an ``APIKey`` (`X-API-Key`), for
/// clients that work without a mobile session. It never refreshes or retries: a 401 means the
/// key was deleted or is wrong, and the answer is returned as it is.
///
/// ```swift
/// let transport = APIKeyHTTPTransport(wrapping: URLSessionHTTPTransport(), apiKey: key, server: server)
/// let api = ServerBeeAPIClient(server: server, transport: transport)
/// ```
public struct APIKeyHTTPTransport: HTTPTransport {
  private let base: any HTTPTransport
  private let apiKey: APIKey
  private let server: ServerURL

  /// Creates the decorator.
  /// - Parameters:
  ///   - base: The transport that performs the exchanges.
  ///   - apiKey: The key.
  ///   - server: The only server the key is sent to.
  public init(wrapping base: any HTTPTransport, apiKey: APIKey, server: ServerURL) {
    self.base = base
    self.apiKey = apiKey
    self.server = server
  }

  /// Sends `request` with `X-API-Key`; an `authorization` header is removed.
  /// - Parameter request: The request; it must go to the key's server.
  /// - Returns: The response, whatever its status.
  /// - Throws: ``ServerBeeAPIError`` `.invalidArgument` for a request to another origin (the
  ///   key is never sent there), or the base transport's error.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    guard server.hasSameOrigin(as: request.url) else {
      throw ServerBeeAPIError(.invalidArgument, "the API key is only sent to its own server")
    }
    var signed = request
    signed.headers["authorization"] = nil
    signed.headers["x-api-key"] = apiKey.text
    return try await base.send(signed)
  }
}

extension ServerBeeAPIClient {
  /// Creates a client that signs every request with an API key instead of a mobile session.
  ///
  /// Routes that need a mobile session (devices, pairing, push registration) answer 400 or 401
  /// to an API key; everything else works with the key's role.
  ///
  /// ```swift
  /// let api = ServerBeeAPIClient(
  ///   server: try ServerURL("https://monitor.example.com"), apiKey: try APIKey(keyText),
  ///   transport: URLSessionHTTPTransport())
  /// let users = try await api.users()
  /// ```
  /// - Parameters:
  ///   - server: The server.
  ///   - apiKey: The key.
  ///   - transport: The transport that performs the exchanges (no credentials of its own).
  public init(server: ServerURL, apiKey: APIKey, transport: any HTTPTransport) {
    self.init(
      server: server,
      transport: APIKeyHTTPTransport(wrapping: transport, apiKey: apiKey, server: server))
  }
}
