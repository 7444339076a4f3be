import ServerBeeTransport

/// Every HTTP route and socket of the ServerBee API that ServerBeeKit speaks, each declared once
/// (`Documentation/Coverage.md` lists them beside the official app's inventory).
///
/// The SDK's clients send these values through ``RouteClient``; the simulator registers its
/// handlers against them; the route tests and the coverage table are computed from ``all``.
/// A route is added in its area's file (`RouteCatalogue+Area.swift`): the typed value, and its
/// name in the area's `all`.
///
/// ```swift
/// let routes = RouteClient(server: server, transport: transport)
/// let servers = try await routes.send(RouteCatalogue.Servers.servers)
/// for route in RouteCatalogue.all { print(route.requestLine, route.credential) }
/// ```
public enum RouteCatalogue {
  /// Every HTTP route, area by area.
  public static let all: [AnyAPIRoute] =
    Auth.all + Account.all + Administration.all + Servers.all + Alerts.all + Tasks.all
    + Security.all + Firewall.all + Push.all + Incidents.all + Agents.all + Insights.all
    + NetworkProbes.all + Traceroute.all + IPQuality.all + ServiceMonitors.all + Docker.all

  /// Every WebSocket route.
  public static let sockets: [SocketRoute] = [Live.fleetStream, Docker.dockerLogs]

  /// The route whose request line matches `method` and `path` segments, with the values of its
  /// placeholders.
  /// - Parameters:
  ///   - method: The request method, for example `GET`.
  ///   - pathSegments: The request path split at `/`, without empty segments.
  /// - Returns: The route and its values, or `nil` when no route matches.
  public static func route(method: String, pathSegments: [String]) -> (
    route: AnyAPIRoute, values: [String]
  )? {
    for route in all where route.method.rawValue == method {
      if let values = route.template.match(pathSegments) { return (route, values) }
    }
    return nil
  }

  /// The live sockets.
  public enum Live {
    /// `GET /api/ws/servers`: the live fleet stream (`full_sync`, `update`, server and
    /// agent events; pings every 25 s).
    public static let fleetStream = SocketRoute(
      "fleetStream", "/api/ws/servers", .member,
      summary: "live fleet: full_sync, update and server events")
  }
}
