import ServerBeeRoutes
import ServerBeeTransport

/// Who may call a route.
enum RouteAccess: Sendable {
  /// No credential.
  case open
  /// Any valid credential; `must_change_password` users get 403 JSON.
  case protected
  /// Any valid credential, even a user flagged `must_change_password` (`/auth/me`).
  case ungated
  /// Admin role; others get a bare 403.
  case admin
}

extension RouteAccess {
  /// What the router checks for a catalogue credential: a mobile session is checked like any
  /// credential here, and the handler refuses other kinds where the route needs one.
  init(_ credential: RouteCredential) {
    switch credential {
    case .none: self = .open
    case .member, .mobileSession: self = .protected
    case .memberUngated: self = .ungated
    case .admin: self = .admin
    }
  }
}

/// A route handler: the request and its caller (`nil` on `.open` and control routes).
typealias RouteHandler =
  @Sendable (SimulatorCore, RequestContext, Caller?) throws -> HTTPResponse

/// What a route produces under the database lock.
enum RouteAnswer {
  /// The finished response.
  case response(HTTPResponse)
  /// Work that finishes the response after the lock is released: encoding rows read under the
  /// lock, so that one large answer does not hold every other request up.
  case finish(() throws -> HTTPResponse)
}

/// One entry of a route table: a method, a path pattern (`*` matches one segment and is
/// captured, in order, as ``RequestContext/parameters``), who may call it, and its handler.
struct Route: Sendable {
  let method: String
  let pattern: [String]
  let access: RouteAccess
  /// The catalogue route this entry serves (`nil` for a control route or a socket).
  let api: AnyAPIRoute?
  /// The catalogue socket whose plain-HTTP answer this entry gives (a request without an
  /// upgrade; the upgrade itself is taken before the route tables).
  let socket: SocketRoute?
  let handler: @Sendable (SimulatorCore, RequestContext, Caller?) throws -> RouteAnswer

  /// A control route (`__simulator/…`), whose handler answers under the database lock.
  init(control method: String, _ path: String, _ handler: @escaping RouteHandler) {
    self.method = method
    self.pattern = path.split(separator: "/").map(String.init)
    self.access = .open
    self.api = nil
    self.socket = nil
    self.handler = { .response(try handler($0, $1, $2)) }
  }

  /// The plain-HTTP answer of a catalogue socket (a `GET` without an upgrade).
  init(socket: SocketRoute, _ handler: @escaping RouteHandler) {
    self.method = "GET"
    self.pattern = Self.pattern(socket.template)
    self.access = RouteAccess(socket.credential)
    self.api = nil
    self.socket = socket
    self.handler = { .response(try handler($0, $1, $2)) }
  }

  /// The entry of a catalogue route: its method and template, and the access its credential
  /// asks for (``RouteAccess/init(_:)``) unless `access` says otherwise.
  init(
    _ api: AnyAPIRoute, access: RouteAccess? = nil,
    answering handler:
      @escaping @Sendable (SimulatorCore, RequestContext, Caller?) throws
      -> RouteAnswer
  ) {
    self.method = api.method.rawValue
    self.pattern = Self.pattern(api.template)
    self.access = access ?? RouteAccess(api.credential)
    self.api = api
    self.socket = nil
    self.handler = handler
  }

  /// A template's segments with `*` for each placeholder.
  private static func pattern(_ template: PathTemplate) -> [String] {
    template.segments.map { segment in
      switch segment {
      case .literal(let text): return text
      case .parameter: return "*"
      }
    }
  }

  /// The captured `*` segments when `segments` fit the pattern, else `nil`.
  func match(_ segments: [String]) -> [String]? {
    guard segments.count == pattern.count else { return nil }
    var parameters: [String] = []
    for (part, segment) in zip(pattern, segments) {
      if part == "*" {
        parameters.append(segment)
      } else if part != segment {
        return nil
      }
    }
    return parameters
  }
}
