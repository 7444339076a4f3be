public import ServerBeeModels
public import ServerBeeTransport

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The one request path of the SDK: builds the request of a catalogue route, sends it over any
/// `HTTPTransport`, and reads the answer: the route's success status yields the payload under
/// `data`; any other status is a ``ServerBeeRoutesError`` `.rejected` whose
/// `failure` classifies it once for every caller (`APIFailure`: the
/// error envelope, an empty-body 401 from the middleware against a handler's JSON 401, an
/// empty-body 404 for a route the server does not have).
///
/// It adds no credential of its own: give it a transport that does (AuthSession's
/// `AuthorizedHTTPTransport`, ServerBeeAPI's `APIKeyHTTPTransport`), or pass a header.
///
/// ```swift
/// let routes = RouteClient(server: server, transport: transport)
/// let me = try await routes.send(RouteCatalogue.Account.currentUser)
/// let states = try await routes.send(RouteCatalogue.Alerts.alertRuleStates, PathID(rule.id))
/// try await routes.send(
///   RouteCatalogue.Alerts.setAlertRule, PathID(rule.id), body: AlertRuleToggle(enabled: false))
/// ```
public struct RouteClient: Sendable {
  /// The server every request goes to.
  public let server: ServerURL
  /// The transport that performs the exchanges.
  public let transport: any HTTPTransport
  /// What a request to a route with a ``APIRoute/serverWait`` is given beyond that wait: room
  /// for the server's answer to travel after it has waited in full.
  public static let serverWaitMargin: Duration = .seconds(10)

  /// Creates a client.
  /// - Parameters:
  ///   - server: The server's base URL.
  ///   - transport: The transport; it must return every status as a response.
  public init(server: ServerURL, transport: any HTTPTransport) {
    self.server = server
    self.transport = transport
  }

  /// Sends a route and returns the payload of its success answer.
  /// - Parameters:
  ///   - route: The catalogue route.
  ///   - path: The values of its path placeholders.
  ///   - body: The request body (``NoBody`` sends none).
  ///   - query: Query items in wire order; `nil` values are left out. Each name must be one
  ///     the route declares.
  ///   - headers: Extra headers (an explicit `authorization`, say).
  /// - Returns: The payload under `data`.
  /// - Throws: ``ServerBeeRoutesError`` (`.invalidArgument`, `.transport`, `.rejected`,
  ///   `.undecodable`), or `CancellationError`.
  public func send<Path, Request, Response>(
    _ route: APIRoute<Path, Request, Response>, _ path: Path, body: Request,
    query: [(String, String?)] = [], headers: HTTPHeaders = [:]
  ) async throws -> Response {
    let request = try self.request(route, path, body: body, query: query, headers: headers)
    let response = try await exchange(request, route: route.requestLine)
    return try Self.payload(route, from: response, requestPath: request.url.path)
  }

  /// Sends a route and returns the answer whatever its status, for callers whose routes give
  /// several statuses a meaning of their own (sign-in, refresh, revocation). Use
  /// ``payload(_:from:requestPath:)`` to read a success answer.
  /// - Parameters: As ``send(_:_:body:query:headers:)``.
  /// - Returns: The response.
  /// - Throws: ``ServerBeeRoutesError`` `.invalidArgument` or `.transport`, or
  ///   `CancellationError`.
  public func exchange<Path, Request, Response>(
    _ route: APIRoute<Path, Request, Response>, _ path: Path, body: Request,
    query: [(String, String?)] = [], headers: HTTPHeaders = [:]
  ) async throws -> HTTPResponse {
    try await exchange(
      request(route, path, body: body, query: query, headers: headers), route: route.requestLine)
  }

  /// The HTTP request of a route.
  /// - Parameters: As ``send(_:_:body:query:headers:)``.
  /// - Returns: The request: `accept: application/json`, and `content-type:
  ///   application/json` with the body when there is one.
  /// - Throws: ``ServerBeeRoutesError`` `.invalidArgument`.
  public func request<Path, Request, Response>(
    _ route: APIRoute<Path, Request, Response>, _ path: Path, body: Request,
    query: [(String, String?)] = [], headers: HTTPHeaders = [:]
  ) throws -> HTTPRequest {
    var pathText: String
    do {
      pathText = try route.template.path(path.values)
    } catch let error as ServerBeeRoutesError {
      throw ServerBeeRoutesError(.invalidArgument, "\(route.requestLine): \(error.message)")
    }
    var items: [String] = []
    for (name, value) in query {
      guard route.query.contains(name) else {
        throw ServerBeeRoutesError(
          .invalidArgument, "\(route.requestLine) reads no query parameter '\(name)'")
      }
      if let value {
        items.append(
          PercentEncoding.queryComponent(name) + "=" + PercentEncoding.queryComponent(value))
      }
    }
    if !items.isEmpty { pathText += "?" + items.joined(separator: "&") }
    var request = HTTPRequest(
      method: route.method, url: server.endpoint(pathText), headers: ["accept": "application/json"],
      minimumTimeout: route.serverWait.map { $0 + Self.serverWaitMargin })
    for (name, value) in headers { request.headers[name] = value }
    if Request.self != NoBody.self {
      do {
        request.body = try WireJSON.encode(body)
      } catch {
        throw ServerBeeRoutesError(
          .invalidArgument, "\(route.requestLine): the request body could not be written")
      }
      request.headers["content-type"] = "application/json"
    }
    return request
  }

  /// Reads an answer of `route`: its success status yields the payload under `data`.
  /// - Parameters:
  ///   - route: The route the answer is for.
  ///   - response: The answer.
  ///   - requestPath: The path the request went to, for messages (never its query).
  /// - Returns: The payload.
  /// - Throws: ``ServerBeeRoutesError`` `.rejected` for another status (its
  ///   `failure` classifies it), `.undecodable` for a payload that does
  ///   not decode.
  public static func payload<Path, Request, Response>(
    _ route: APIRoute<Path, Request, Response>, from response: HTTPResponse,
    requestPath: String? = nil
  ) throws -> Response {
    let line = "\(route.method.rawValue) \(requestPath ?? route.template.text)"
    guard response.status == route.successStatus else {
      let failure = APIFailure(status: response.status, body: response.body)
      throw ServerBeeRoutesError(
        .rejected, "\(line): the server answered \(failure.description)",
        httpStatus: response.status, underlying: failure)
    }
    if Response.self == Ignored.self, let ignored = Ignored() as? Response { return ignored }
    do {
      return try WireJSON.decode(APIResponse<Response>.self, from: response.body).data
    } catch let error as ServerBeeModelsError {
      throw ServerBeeRoutesError(
        .undecodable, "\(line): the answer could not be read: \(error.message)",
        httpStatus: response.status, underlying: error)
    } catch {
      throw ServerBeeRoutesError(
        .undecodable, "\(line): the answer could not be read", httpStatus: response.status)
    }
  }

  private func exchange(_ request: HTTPRequest, route: String) async throws -> HTTPResponse {
    do {
      return try await transport.send(request)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      if Task.isCancelled { throw CancellationError() }
      // A decorator's own refusal (AuthSession's error, say) or the transport's error: its
      // message is a ServerBeeKit message (no secrets); any other error is named by kind only.
      let reason = (error as? any ServerBeeErrorProtocol).map { ": \($0.message)" } ?? ""
      throw ServerBeeRoutesError(
        .transport, "\(route): the server could not be reached\(reason)",
        underlying: error as (any Error & Sendable))
    }
  }
}

extension RouteClient {
  /// Sends a route without path values.
  public func send<Request, Response>(
    _ route: APIRoute<NoPath, Request, Response>, body: Request, query: [(String, String?)] = [],
    headers: HTTPHeaders = [:]
  ) async throws -> Response {
    try await send(route, NoPath(), body: body, query: query, headers: headers)
  }

  /// Sends a route without a body.
  public func send<Path, Response>(
    _ route: APIRoute<Path, NoBody, Response>, _ path: Path, query: [(String, String?)] = [],
    headers: HTTPHeaders = [:]
  ) async throws -> Response {
    try await send(route, path, body: NoBody(), query: query, headers: headers)
  }

  /// Sends a route without path values or a body.
  public func send<Response>(
    _ route: APIRoute<NoPath, NoBody, Response>, query: [(String, String?)] = [],
    headers: HTTPHeaders = [:]
  ) async throws -> Response {
    try await send(route, NoPath(), body: NoBody(), query: query, headers: headers)
  }
}
