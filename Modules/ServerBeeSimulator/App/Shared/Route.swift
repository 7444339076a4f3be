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

/// A route handler: the request and its caller (`nil` on `.open` and control routes).
typealias RouteHandler =
  @Sendable (SimulatorCore, RequestContext, Caller?) throws -> HTTPResponse

/// What a route produces under the database lock.
enum RouteAnswer {
  /// The finished response.
  case response(HTTPResponse)
  /// Work that finishes the response after the lock is released: encoding rows read under the
  /// lock, so that one large answer does not hold every other request up (issue 24).
  case finish(() throws -> HTTPResponse)
}

/// One entry of a route table: a method, a path pattern (`*` matches one segment and is
/// captured, in order, as ``RequestContext/parameters``), who may call it, and its handler.
struct Route: Sendable {
  let method: String
  let pattern: [String]
  let access: RouteAccess
  let handler: @Sendable (SimulatorCore, RequestContext, Caller?) throws -> RouteAnswer

  /// A route whose handler answers under the database lock.
  init(_ method: String, _ path: String, _ access: RouteAccess, _ handler: @escaping RouteHandler) {
    self.init(method, path, access, answering: { .response(try handler($0, $1, $2)) })
  }

  /// A route whose handler may finish its response outside the lock.
  init(
    _ method: String, _ path: String, _ access: RouteAccess,
    answering handler:
      @escaping @Sendable (SimulatorCore, RequestContext, Caller?) throws
      -> RouteAnswer
  ) {
    self.method = method
    self.pattern = path.split(separator: "/").map(String.init)
    self.access = access
    self.handler = handler
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
