import ServerBeeRoutes
import Testing

@testable import ServerBeeSimulator

/// The route tables: every catalogue route (ServerBeeRoutes' `RouteCatalogue`) has exactly one
/// handler, with the access its credential asks for, no two routes can answer the same request,
/// and each table holds only its own kind of path.
@Suite struct RouteTableTests {
  /// The routes whose handlers check the mobile session themselves (the router lets them
  /// through): the encrypted push routes answer a missing or foreign credential their own way.
  static let selfAuthenticated: Set<String> = [
    RouteCatalogue.Push.settings.erased.key, RouteCatalogue.Push.updateSettings.erased.key,
    RouteCatalogue.Push.encryptedRegister.erased.key, RouteCatalogue.Push.sendTest.erased.key,
    RouteCatalogue.Push.testStatus.erased.key,
  ]

  /// `METHOD pattern` of every control route, as before it was organised by area (`POST
  /// __simulator/push/outbox/run` is answered outside the tables).
  static let controlRoutes: Set<String> = [
    "DELETE __simulator/alert-rules/*", "DELETE __simulator/maintenance/*",
    "DELETE __simulator/mobile-sessions/*", "DELETE __simulator/users/*",
    "GET __simulator/push/outbox", "GET __simulator/push/registrations",
    "PATCH __simulator/alert-rules/*", "PATCH __simulator/users/*", "POST __simulator/alert-rules",
    "POST __simulator/alerts/fire", "POST __simulator/alerts/resolve",
    "POST __simulator/clock/advance", "POST __simulator/firewall/blocks",
    "POST __simulator/maintenance",
    "POST __simulator/security-events", "POST __simulator/server-groups",
    "POST __simulator/servers", "POST __simulator/servers/*/metrics",
    "POST __simulator/servers/*/offline", "POST __simulator/servers/*/online",
    "POST __simulator/servers/*/traceroute-agent",
    "POST __simulator/servers/*/docker",
    "POST __simulator/servers/*/enroll",
    "POST __simulator/tasks", "POST __simulator/tasks/*/runs", "POST __simulator/tick",
    "POST __simulator/users", "POST __simulator/users/*/api-key",
    "POST __simulator/users/*/pair-code", "POST __simulator/users/*/web-session",
    "PUT __simulator/push/relay",
    "POST __simulator/notification-channels", "GET __simulator/notification-channels/*",
  ]

  private static func signature(_ route: Route) -> String {
    route.method + " " + route.pattern.joined(separator: "/")
  }

  /// Every catalogue route and socket is served, once, and nothing else is: a public route
  /// can only be registered with a catalogue value.
  @Test func thePublicTableIsTheCatalogue() {
    let served = SimulatorCore.apiRoutes.compactMap { $0.api?.key }
    #expect(Set(served) == Set(RouteCatalogue.all.map(\.key)))
    #expect(served.count == RouteCatalogue.all.count, "a catalogue route is served twice")
    let sockets = SimulatorCore.apiRoutes.compactMap { $0.socket?.key }
    #expect(Set(sockets) == Set(RouteCatalogue.sockets.map(\.key)))
    #expect(SimulatorCore.apiRoutes.allSatisfy { ($0.api == nil) != ($0.socket == nil) })
    #expect(SimulatorCore.apiRoutes.allSatisfy { $0.pattern.first == "api" })
  }

  /// Each route's access is what its catalogue credential asks for, but for the routes that
  /// check the credential themselves.
  @Test func eachRouteHasTheAccessOfItsCredential() {
    for route in SimulatorCore.apiRoutes {
      guard let api = route.api else { continue }
      let expected: RouteAccess =
        Self.selfAuthenticated.contains(api.key) ? .open : RouteAccess(api.credential)
      #expect(route.access == expected, "\(api.requestLine): \(route.access)")
    }
  }

  /// The access the credentials give: the router checks any credential for a member route and
  /// for a mobile-session route (the handler refuses other kinds), the role for an admin one.
  @Test func theCredentialsMapToTheRoutersChecks() {
    #expect(RouteAccess(.none) == .open)
    #expect(RouteAccess(.member) == .protected)
    #expect(RouteAccess(.mobileSession) == .protected)
    #expect(RouteAccess(.memberUngated) == .ungated)
    #expect(RouteAccess(.admin) == .admin)
  }

  @Test func theControlTableHoldsEveryControlRoute() {
    let table = SimulatorCore.controlRoutes.map(Self.signature)
    #expect(Set(table) == Self.controlRoutes)
    #expect(table.count == Self.controlRoutes.count)
    #expect(SimulatorCore.controlRoutes.allSatisfy { $0.pattern.first == "__simulator" })
  }

  /// Each area is listed once in `SimulatorCore.areas`, and each of its routes is in the table
  /// the router reads for its kind of path.
  @Test func everyAreaIsRegisteredOnceWithEveryRoute() {
    let names = SimulatorCore.areas.map { String(describing: $0) }
    #expect(Set(names).count == names.count)
    let api = Set(SimulatorCore.apiRoutes.map(Self.signature))
    let control = Set(SimulatorCore.controlRoutes.map(Self.signature))
    for area in SimulatorCore.areas {
      #expect(!area.routes.isEmpty || !area.controlRoutes.isEmpty, "\(area) has no route")
      for route in area.routes {
        #expect(api.contains(Self.signature(route)), "\(area): \(Self.signature(route))")
        #expect(route.pattern.first == "api", "\(area): \(Self.signature(route))")
      }
      for route in area.controlRoutes {
        #expect(control.contains(Self.signature(route)), "\(area): \(Self.signature(route))")
        #expect(route.pattern.first == "__simulator", "\(area): \(Self.signature(route))")
      }
    }
  }

  /// The tables hold the areas' routes and nothing else.
  @Test func theTablesAreTheAreasRoutes() {
    let areaRoutes = SimulatorCore.areas.flatMap { $0.routes }.map(Self.signature)
    let areaControlRoutes = SimulatorCore.areas.flatMap { $0.controlRoutes }.map(Self.signature)
    #expect(SimulatorCore.apiRoutes.map(Self.signature) == areaRoutes)
    #expect(SimulatorCore.controlRoutes.map(Self.signature) == areaControlRoutes)
  }

  /// Two routes collide when one request could match both: the same method and, segment by
  /// segment, the same text or a `*` on either side. Then the table's order would decide the
  /// answer; without collisions it never does.
  @Test(arguments: [SimulatorCore.apiRoutes, SimulatorCore.controlRoutes])
  func noTwoRoutesAnswerTheSameRequest(_ table: [Route]) {
    for (index, route) in table.enumerated() {
      for other in table[(index + 1)...] where other.method == route.method {
        let collides =
          other.pattern.count == route.pattern.count
          && zip(route.pattern, other.pattern).allSatisfy { $0 == $1 || $0 == "*" || $1 == "*" }
        #expect(!collides, "\(Self.signature(route)) collides with \(Self.signature(other))")
      }
    }
  }
}
