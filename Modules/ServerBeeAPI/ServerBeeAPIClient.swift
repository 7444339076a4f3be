public import ServerBeeModels
public import ServerBeeRoutes
public import ServerBeeTransport

/// A typed client for the REST data routes of a ServerBee server: servers and their records,
/// server groups, alert events and rules, tasks and their results, security events, and the
/// account's own user and mobile devices (Protocol/Auth.md, Protocol/Servers.md,
/// Protocol/Alerts.md, Protocol/Tasks.md, Protocol/Security.md, Protocol/README.md §10,
/// Protocol/Push.md §7).
///
/// The client is a small `Sendable` value over any `HTTPTransport`. It adds no credentials
/// itself: give it a transport that does, normally AuthSession's `AuthorizedHTTPTransport`, which
/// signs each request with the session's bearer token and refreshes once on a 401.
///
/// ```swift
/// let auth = AuthClient(configuration: .init(deviceName: "Ops laptop"), store: store)
/// let identity = try await auth.pair(scannedPayload: scannedText)
/// let api = ServerBeeAPIClient(
///   server: identity.server,
///   transport: AuthorizedHTTPTransport(wrapping: URLSessionHTTPTransport(), client: auth))
///
/// let servers = try await api.servers()
/// let firing = try await api.alertEvents(limit: 50).filter { $0.status == .firing }
/// for try await page in api.securityEvents(SecurityEventQuery(severity: .critical)) {
///   for event in page.items { print(event.sourceIP) }
/// }
/// ```
///
/// ### Errors
///
/// Every call throws ``ServerBeeAPIError`` (or `CancellationError`, untouched). The status of a
/// non-200 answer becomes the code: 401 `.unauthorized` (empty body, the middleware;
/// `.apiKeyRejected` for a client that signs with an API key) or `.refused` (the JSON envelope:
/// a handler refused a value, such as a wrong two-factor code), 403 `.forbidden` (the
/// empty-body admin gate included) or `.mustChangePassword`, 404 `.notFound`, 400 `.badRequest`, 409
/// `.conflict`, 422/415 `.validation`, 429 `.rateLimited`, 5xx `.server`, anything else
/// `.unexpectedStatus`. A 200 that does not decode is `.decoding`; a thrown transport error is
/// `.transport`.
///
/// ### Server generations
///
/// The rule for ``ServerBeeAPIError`` code `.serverTooOld`:
/// - An **empty-body 404** on any route is the router's "no such route" answer (Protocol/README.md
///   §5); every handler 404 carries a `Not found: …` message. So it means the server predates the
///   route.
/// - ``alertEvent(key:)`` with a `v1.` key (Protocol/Alerts.md §5): a v1 server looks for a `:` in
///   the key, finds none and answers 400; that 400 means the server predates `v1.` keys.
/// - ``taskResults(taskID:runID:)`` (Protocol/Tasks.md §4): a v1 server ignores `?run_id=` and
///   answers every run's rows; an answer holding a row of another run means the server predates the
///   filter. (A v2 server answers an unknown run with 404 `.notFound`.)
///
/// ## Topics
///
/// ### Creating a client
///
/// - ``init(server:transport:)``
/// - ``init(server:apiKey:transport:)``
/// - ``server``
///
/// ### Sending any catalogue route
///
/// - ``send(_:_:body:query:)``
/// - ``send(_:_:query:)``
/// - ``send(_:body:)``
/// - ``send(_:query:)``
///
/// ### Servers
///
/// - ``servers()``
/// - ``server(id:)``
/// - ``records(serverID:query:)``
/// - ``records(serverID:from:to:interval:)``
/// - ``serverGroups()``
///
/// ### Alerts
///
/// - ``alertEvents(limit:)``
/// - ``alertEvent(key:)``
/// - ``alertEvent(_:)``
/// - ``alertRules()``
/// - ``alertRule(id:)``
/// - ``alertRuleStates(ruleID:)``
/// - ``setAlertRule(id:enabled:)``
/// - ``notificationChannels()``
/// - ``setNotificationChannel(id:enabled:)``
/// - ``testNotificationChannel(id:)``
///
/// ### Tasks
///
/// - ``tasks(type:)``
/// - ``task(id:)``
/// - ``taskResults(taskID:)``
/// - ``taskResults(taskID:runID:)``
///
/// ### Security
///
/// - ``securityEvents(_:)``
/// - ``securityEventPage(_:cursor:)``
/// - ``securityEvent(id:)``
/// - ``securityStats(groupedBy:serverID:since:until:limit:)``
/// - ``deleteSecurityEvent(id:)``
///
/// ### Account
///
/// - ``currentUser()``
/// - ``devices()``
/// - ``revokeDevice(id:)``
/// - ``createPairingCode()``
/// - ``changePassword(from:to:)``
/// - ``twoFactorStatus()``
/// - ``setUpTwoFactor()``
/// - ``enableTwoFactor(code:)``
/// - ``disableTwoFactor(password:)``
/// - ``apiKeys()``
/// - ``createAPIKey(name:)``
/// - ``deleteAPIKey(id:)``
/// - ``registerLegacyPush(deviceToken:)``
///
/// ### Administration
///
/// - ``users()``
/// - ``createUser(username:password:role:)``
/// - ``updateUser(id:role:password:)``
/// - ``deleteUser(id:)``
/// - ``auditLog(limit:offset:action:userID:)``
/// - ``auditLogOptions()``
/// - ``rateLimits()``
/// - ``resetRateLimits(scope:ip:)``
/// - ``geoIPStatus()``
/// - ``asnStatus()``
/// - ``downloadGeoIP()``
/// - ``downloadASN()``
public struct ServerBeeAPIClient: Sendable {
  /// The server every request goes to.
  public let server: ServerURL
  private let transport: any HTTPTransport

  /// Creates a client.
  ///
  /// ```swift
  /// let api = ServerBeeAPIClient(
  ///   server: try ServerURL("https://monitor.example.com:9527"),
  ///   transport: AuthorizedHTTPTransport(wrapping: URLSessionHTTPTransport(), client: auth))
  /// ```
  /// - Parameters:
  ///   - server: The server's base URL; requests go to `server.endpoint("/api/…")`.
  ///   - transport: The transport that performs the exchanges and adds credentials (for example
  ///     AuthSession's `AuthorizedHTTPTransport`). It must return every status as a response.
  public init(server: ServerURL, transport: any HTTPTransport) {
    self.server = server
    self.transport = transport
  }

  // MARK: Machinery

  /// Sends any catalogue route (ServerBeeRoutes' `RouteCatalogue`) with this client's server,
  /// transport and error mapping: a route needs no method of its own here to be usable.
  ///
  /// ```swift
  /// let states = try await api.send(RouteCatalogue.Alerts.alertRuleStates, PathID(rule.id))
  /// let rule = try await api.send(
  ///   RouteCatalogue.Alerts.setAlertRule, PathID(rule.id), body: AlertRuleToggle(enabled: true))
  /// ```
  /// - Parameters:
  ///   - route: The catalogue route.
  ///   - path: Its path values.
  ///   - body: The request body.
  ///   - query: Query items in wire order (names the route declares); `nil` values are left
  ///     out.
  /// - Returns: The payload under `data`.
  /// - Throws: ``ServerBeeAPIError`` as the type's discussion maps it, or `CancellationError`.
  public func send<Path, Request, Response>(
    _ route: APIRoute<Path, Request, Response>, _ path: Path, body: Request,
    query: [(String, String?)] = []
  ) async throws -> Response {
    try await send(route, path, body: body, query: query, sendsV1AlertKey: false)
  }

  /// Sends a catalogue route without a body; see ``send(_:_:body:query:)``.
  /// - Parameters:
  ///   - route: The catalogue route.
  ///   - path: Its path values.
  ///   - query: Query items in wire order; `nil` values are left out.
  /// - Returns: The payload under `data`.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func send<Path, Response>(
    _ route: APIRoute<Path, NoBody, Response>, _ path: Path, query: [(String, String?)] = []
  ) async throws -> Response {
    try await send(route, path, body: NoBody(), query: query, sendsV1AlertKey: false)
  }

  /// Sends a catalogue route without path values; see ``send(_:_:body:query:)``.
  /// - Parameters:
  ///   - route: The catalogue route.
  ///   - body: The request body.
  /// - Returns: The payload under `data`.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func send<Request, Response>(
    _ route: APIRoute<NoPath, Request, Response>, body: Request
  ) async throws -> Response {
    try await send(route, NoPath(), body: body, query: [], sendsV1AlertKey: false)
  }

  /// Sends a catalogue route without path values or a body; see ``send(_:_:body:query:)``.
  /// - Parameters:
  ///   - route: The catalogue route.
  ///   - query: Query items in wire order; `nil` values are left out.
  /// - Returns: The payload under `data`.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  public func send<Response>(
    _ route: APIRoute<NoPath, NoBody, Response>, query: [(String, String?)] = []
  ) async throws -> Response {
    try await send(route, NoPath(), body: NoBody(), query: query, sendsV1AlertKey: false)
  }

  /// The one place this client sends: through the request path (ServerBeeRoutes'
  /// `RouteClient`), every failure turned into one ``ServerBeeAPIError``.
  /// - Parameters:
  ///   - route: The catalogue route.
  ///   - path: Its path values.
  ///   - body: The request body.
  ///   - query: Query items in wire order; `nil` values are left out.
  ///   - sendsV1AlertKey: The path holds a `v1.` alert key, which a server before v2 answers
  ///     with 400.
  /// - Returns: The payload under `data`.
  /// - Throws: ``ServerBeeAPIError``, or `CancellationError`.
  func send<Path, Request, Response>(
    _ route: APIRoute<Path, Request, Response>, _ path: Path, body: Request,
    query: [(String, String?)], sendsV1AlertKey: Bool
  ) async throws -> Response {
    let line = Self.requestLine(route, path)
    do {
      return try await RouteClient(server: server, transport: transport)
        .send(route, path, body: body, query: query)
    } catch let error as ServerBeeRoutesError {
      throw Self.error(
        for: error, line, sendsV1AlertKey: sendsV1AlertKey,
        usesAPIKey: transport is APIKeyHTTPTransport)
    }
  }

  /// `GET /api/servers/srv-1`: the method and the percent-encoded path, without the query (a
  /// query may hold a cursor, never worth repeating), for messages.
  static func requestLine<Path, Request, Response>(
    _ route: APIRoute<Path, Request, Response>, _ path: Path
  ) -> String {
    "\(route.method.rawValue) \((try? route.template.path(path.values)) ?? route.template.text)"
  }

  /// Maps a failure of the request path to the API error: a refused argument, an unreachable
  /// server, a non-200 answer (by its ``APIFailure``) or an unreadable payload.
  static func error(
    for error: ServerBeeRoutesError, _ line: String, sendsV1AlertKey: Bool, usesAPIKey: Bool
  ) -> ServerBeeAPIError {
    switch error.code {
    case .rejected:
      guard let failure = error.failure else { break }
      return Self.error(
        for: failure, line, sendsV1AlertKey: sendsV1AlertKey, usesAPIKey: usesAPIKey)
    case .undecodable:
      let reason = (error.underlying as? ServerBeeModelsError).map { ": \($0.message)" } ?? ""
      return ServerBeeAPIError(
        .decoding, "\(line): the answer could not be read\(reason)",
        httpStatus: error.httpStatus, underlying: error.underlying)
    case .transport:
      if let transport = error.underlying as? ServerBeeTransportError {
        return ServerBeeAPIError(
          .transport, "\(line): the server could not be reached: \(transport.message)",
          underlying: transport)
      }
      // A decorator's own refusal (AuthSession's, say): a ServerBeeKit message carries no
      // secret; any other error's text is never read.
      let reason = (error.underlying as? any ServerBeeErrorProtocol).map { ": \($0.message)" }
      return ServerBeeAPIError(
        .transport, "\(line): the request was not sent\(reason ?? "")",
        underlying: error.underlying)
    default: break
    }
    return ServerBeeAPIError(.invalidArgument, error.message, underlying: error)
  }

  /// Maps a non-200 answer to the code its status means (see the type's discussion).
  static func error(
    for failure: APIFailure, _ line: String, sendsV1AlertKey: Bool, usesAPIKey: Bool = false
  ) -> ServerBeeAPIError {
    let code: ServerBeeAPIError.Code
    let fallback: String
    switch failure.kind {
    case .unauthorized where usesAPIKey:
      (code, fallback) = (.apiKeyRejected, "the server refused the API key")
    case .unauthorized: (code, fallback) = (.unauthorized, "the server rejected the credentials")
    case .refused: (code, fallback) = (.refused, "the server refused the value sent")
    case .notPermitted: (code, fallback) = (.forbidden, "this account may not do this")
    case .mustChangePassword:
      (code, fallback) = (.mustChangePassword, "the account must change its password first")
    case .routeNotFound:
      (code, fallback) = (.serverTooOld, "the server has no such route (it may be too old)")
    case .notFound: (code, fallback) = (.notFound, "not found")
    case .badRequest:
      if sendsV1AlertKey {
        (code, fallback) = (.serverTooOld, "the server does not accept v1. alert keys")
      } else {
        (code, fallback) = (.badRequest, "the server refused the request")
      }
    case .twoFactorRequired, .invalidRequest:
      (code, fallback) = (.validation, "the server refused a value")
    case .conflict: (code, fallback) = (.conflict, "conflict")
    case .rateLimited: (code, fallback) = (.rateLimited, "too many requests")
    case .serverError: (code, fallback) = (.server, "the server failed")
    case .other: (code, fallback) = (.unexpectedStatus, "unexpected answer")
    }
    var detail = fallback
    if code == .serverTooOld, failure.body != .empty {
      detail += " (\(failure.message.map { String($0.prefix(200)) } ?? ""))"
    } else if let message = failure.message, !message.isEmpty {
      detail = String(message.prefix(200))
    }
    return ServerBeeAPIError(
      code, "\(line): \(detail)", httpStatus: failure.status, underlying: failure)
  }

  /// Refuses an empty path argument before anything is sent: it would name another route.
  static func requireNonEmpty(_ value: String, _ name: String) throws {
    guard !value.isEmpty else {
      throw ServerBeeAPIError(.invalidArgument, "\(name) must not be empty")
    }
  }
}
