public import ServerBeeTransport

/// One HTTP route of the ServerBee API, declared once: method, path template with typed
/// parameters, the credential it needs, its query parameters, its request body and the payload
/// its success answer carries under `data`.
///
/// The SDK's clients send through ``RouteClient`` with these values, and the simulator
/// registers its handlers against the same values, so a route is spelled in exactly one place
/// (``RouteCatalogue``).
///
/// ```swift
/// // The catalogue entry:
/// static let alertRuleStates = APIRoute<PathID, NoBody, [AlertRuleState]>(
///   "alertRuleStates", .get, "/api/alert-rules/{id}/states", .admin,
///   summary: "the per-server states of one alert rule")
///
/// // A client sending it:
/// let states = try await RouteClient(server: server, transport: transport)
///   .send(RouteCatalogue.Alerts.alertRuleStates, PathID(ruleID))
/// ```
///
/// - `Path`: the values of the template's placeholders (``NoPath``, ``PathID``, ``PathIDPair``).
/// - `Request`: the JSON body (``NoBody`` for none).
/// - `Response`: the payload under `data` of a success answer (``Ignored`` when the app does
///   not read it).
public struct APIRoute<
  Path: PathParameters, Request: Encodable & Sendable, Response: Decodable & Sendable
>:
  Sendable
{
  /// The route's stable name in the catalogue, for example `alertRuleStates`.
  public let name: String
  /// The HTTP method.
  public let method: HTTPMethod
  /// The path template, for example `/api/alert-rules/{id}/states`.
  public let template: PathTemplate
  /// Who may call the route.
  public let credential: RouteCredential
  /// The query parameters the route reads, in the order they are sent.
  public let query: [String]
  /// What the route does, in a few words (for the coverage table and messages).
  public let summary: String
  /// The status of a success answer.
  public let successStatus: Int
  /// How long the server may wait on someone else before it answers, `nil` when it answers
  /// from what it has: a Docker route that asks the agent waits up to 30 s, then answers 408
  /// (Protocol/AppRoutes.md §8.1). ``RouteClient`` gives such a request this long and
  /// ``RouteClient/serverWaitMargin`` more, so the server's answer arrives before the
  /// transport gives up.
  public let serverWait: Duration?

  /// Declares a route.
  /// - Parameters:
  ///   - name: The stable name (the catalogue property's name).
  ///   - method: The HTTP method.
  ///   - template: The path template; `{name}` segments are placeholders.
  ///   - credential: Who may call it.
  ///   - query: The query parameters it reads.
  ///   - successStatus: The status of a success answer (200 on every ServerBee route).
  ///   - serverWait: How long the server may wait on someone else before it answers; `nil`
  ///     (the default) when it answers from what it has.
  ///   - summary: What it does, in a few words.
  public init(
    _ name: String, _ method: HTTPMethod, _ template: String, _ credential: RouteCredential,
    query: [String] = [], successStatus: Int = 200, serverWait: Duration? = nil, summary: String
  ) {
    self.serverWait = serverWait
    self.name = name
    self.method = method
    self.template = PathTemplate(template)
    self.credential = credential
    self.query = query
    self.successStatus = successStatus
    self.summary = summary
  }

  /// `GET /api/alert-rules/{id}/states`.
  public var requestLine: String { "\(method.rawValue) \(template.text)" }

  /// The route without its types, for tables and registries.
  public var erased: AnyAPIRoute {
    AnyAPIRoute(
      name: name, method: method, template: template, credential: credential, query: query,
      summary: summary, successStatus: successStatus, pathParameters: Path.count,
      requestType: Request.self == NoBody.self ? nil : String(describing: Request.self),
      responseType: String(describing: Response.self),
      reader: { [self] response in try RouteClient.payload(self, from: response) })
  }
}

/// An ``APIRoute`` without its types: what tables, registries and documentation need, and a
/// reader of its success answers with the route's own response type.
///
/// ```swift
/// for route in RouteCatalogue.all where route.credential == .admin { print(route.requestLine) }
/// let payload = try RouteCatalogue.Servers.servers.erased.payload(from: response)
/// ```
public struct AnyAPIRoute: Sendable, Hashable, CustomStringConvertible {
  /// The route's stable name.
  public let name: String
  /// The HTTP method.
  public let method: HTTPMethod
  /// The path template.
  public let template: PathTemplate
  /// Who may call the route.
  public let credential: RouteCredential
  /// The query parameters the route reads.
  public let query: [String]
  /// What the route does.
  public let summary: String
  /// The status of a success answer.
  public let successStatus: Int
  /// How many values the route's `Path` type carries.
  public let pathParameters: Int
  /// The request body's type name, `nil` for none.
  public let requestType: String?
  /// The response payload's type name.
  public let responseType: String
  /// ``RouteClient/payload(_:from:requestPath:)`` with the route's own types.
  let reader: @Sendable (HTTPResponse) throws -> any Sendable

  init(
    name: String, method: HTTPMethod, template: PathTemplate, credential: RouteCredential,
    query: [String], summary: String, successStatus: Int, pathParameters: Int,
    requestType: String?, responseType: String,
    reader: @escaping @Sendable (HTTPResponse) throws -> any Sendable
  ) {
    self.name = name
    self.method = method
    self.template = template
    self.credential = credential
    self.query = query
    self.summary = summary
    self.successStatus = successStatus
    self.pathParameters = pathParameters
    self.requestType = requestType
    self.responseType = responseType
    self.reader = reader
  }

  /// Reads a success answer of the route with its typed response, as its clients do.
  /// - Parameter response: The answer.
  /// - Returns: The payload under `data`, of the route's response type.
  /// - Throws: ``ServerBeeRoutesError`` `.rejected` or `.undecodable`, as
  ///   ``RouteClient/payload(_:from:requestPath:)``.
  public func payload(from response: HTTPResponse) throws -> any Sendable {
    try reader(response)
  }

  /// Whether the route's clients read its success payload (`false` for ``Ignored``).
  public var hasPayload: Bool { responseType != String(describing: Ignored.self) }

  /// Two values are the same route when their names and request lines are.
  public static func == (lhs: AnyAPIRoute, rhs: AnyAPIRoute) -> Bool {
    lhs.name == rhs.name && lhs.key == rhs.key
  }

  /// Hashes the name and the request line.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(key)
  }

  /// `GET /api/alert-rules/{id}/states`.
  public var requestLine: String { "\(method.rawValue) \(template.text)" }

  /// `METHOD shape`: routes with the same key are the same route, whatever their placeholders
  /// are called.
  public var key: String { "\(method.rawValue) \(template.shape)" }

  /// The request line, as ``requestLine``.
  public var description: String { requestLine }
}

/// A WebSocket route of the ServerBee API.
///
/// ```swift
/// let url = server.webSocketEndpoint(RouteCatalogue.Live.fleetStream.template.text)
/// ```
public struct SocketRoute: Sendable, Hashable {
  /// The route's stable name, for example `liveServers`.
  public let name: String
  /// The path template (the upgrade request is a `GET`).
  public let template: PathTemplate
  /// Who may open it.
  public let credential: RouteCredential
  /// What flows over it, in a few words.
  public let summary: String

  /// Declares a socket route.
  /// - Parameters:
  ///   - name: The stable name.
  ///   - template: The path template.
  ///   - credential: Who may open it.
  ///   - summary: What flows over it.
  public init(_ name: String, _ template: String, _ credential: RouteCredential, summary: String) {
    self.name = name
    self.template = PathTemplate(template)
    self.credential = credential
    self.summary = summary
  }

  /// `GET shape`, as ``AnyAPIRoute/key``.
  public var key: String { "GET \(template.shape)" }
}

/// Who may call a route.
public enum RouteCredential: String, Sendable, Hashable, CaseIterable {
  /// No credential: the route is public, or it carries its own proof in the body (refresh
  /// tokens, revocation tokens, pairing codes).
  case none
  /// A mobile session's bearer token: an API key or a web session is refused.
  case mobileSession = "mobile session"
  /// Any valid credential (mobile bearer token, `X-API-Key`, web session); an account that must
  /// change its password is refused.
  case member
  /// Any valid credential, even of an account that must change its password.
  case memberUngated = "member (even before a password change)"
  /// An admin's credential; a member gets 403 with an empty body.
  case admin
}
