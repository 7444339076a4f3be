import Testing

@testable import ServerBeeSimulator

/// The route tables (issue 25): every route the simulator answered before it was organised by
/// area is still there with the same access, no two routes can answer the same request, and
/// each table holds only its own kind of path.
@Suite struct RouteTableTests {
  /// `METHOD pattern access` of every public route: what the simulator had before issue 25,
  /// then two-factor sign-in and notification channels (issue 26).
  static let publicRoutes: Set<String> = [
    "DELETE api/auth/api-keys/* protected", "DELETE api/mobile/auth/devices/* protected",
    "DELETE api/security/events/* admin", "DELETE api/users/* admin",
    "GET api/admin/rate-limit admin", "GET api/alert-events protected",
    "GET api/alert-events/* protected", "GET api/alert-rules admin", "GET api/alert-rules/* admin",
    "GET api/asn/status protected", "GET api/audit-logs admin", "GET api/audit-logs/options admin",
    "GET api/auth/api-keys protected", "GET api/auth/me ungated", "GET api/geoip/status protected",
    "GET api/mobile/auth/devices protected", "GET api/mobile/push/settings open",
    "GET api/mobile/push/test/* open", "GET api/security/events protected",
    "GET api/security/events/* protected", "GET api/security/stats protected",
    "GET api/server-groups protected", "GET api/servers protected", "GET api/servers/* protected",
    "GET api/servers/*/records protected", "GET api/tasks admin", "GET api/tasks/* admin",
    "GET api/tasks/*/results admin", "GET api/users admin", "GET api/ws/servers protected",
    "POST api/admin/rate-limit/reset admin", "POST api/asn/download admin",
    "POST api/auth/api-keys admin", "POST api/geoip/download admin",
    "POST api/mobile/auth/login open", "POST api/mobile/auth/logout protected",
    "POST api/mobile/auth/pair open", "POST api/mobile/auth/recover open",
    "POST api/mobile/auth/refresh open", "POST api/mobile/auth/revoke open",
    "POST api/mobile/pair protected", "POST api/mobile/push/encrypted-register open",
    "POST api/mobile/push/register protected", "POST api/mobile/push/test open",
    "POST api/mobile/push/unregister protected", "POST api/users admin",
    "PUT api/alert-rules/* admin", "PUT api/auth/password protected",
    "PUT api/mobile/push/settings open", "PUT api/users/* admin",
    "GET api/auth/2fa/status protected", "POST api/auth/2fa/setup protected",
    "POST api/auth/2fa/enable protected", "POST api/auth/2fa/disable protected",
    "GET api/notifications admin", "PUT api/notifications/* admin",
    "POST api/notifications/*/test admin",
  ]

  /// `METHOD pattern` of every control route, as before issue 25 (`POST
  /// __simulator/push/outbox/run` is answered outside the tables).
  static let controlRoutes: Set<String> = [
    "DELETE __simulator/alert-rules/*", "DELETE __simulator/maintenance/*",
    "DELETE __simulator/mobile-sessions/*", "DELETE __simulator/users/*",
    "GET __simulator/push/outbox", "GET __simulator/push/registrations",
    "PATCH __simulator/alert-rules/*", "PATCH __simulator/users/*", "POST __simulator/alert-rules",
    "POST __simulator/alerts/fire", "POST __simulator/alerts/resolve",
    "POST __simulator/clock/advance", "POST __simulator/maintenance",
    "POST __simulator/security-events", "POST __simulator/server-groups",
    "POST __simulator/servers", "POST __simulator/servers/*/metrics",
    "POST __simulator/servers/*/offline", "POST __simulator/servers/*/online",
    "POST __simulator/tasks", "POST __simulator/tasks/*/runs", "POST __simulator/tick",
    "POST __simulator/users", "POST __simulator/users/*/api-key",
    "POST __simulator/users/*/pair-code", "POST __simulator/users/*/web-session",
    "PUT __simulator/push/relay",
    "POST __simulator/notification-channels", "GET __simulator/notification-channels/*",
  ]

  private static func signature(_ route: Route) -> String {
    route.method + " " + route.pattern.joined(separator: "/")
  }

  @Test func thePublicTableHoldsEveryRouteWithItsAccess() {
    let table = SimulatorCore.apiRoutes.map { Self.signature($0) + " \($0.access)" }
    #expect(Set(table) == Self.publicRoutes)
    #expect(table.count == Self.publicRoutes.count)
    #expect(SimulatorCore.apiRoutes.allSatisfy { $0.pattern.first == "api" })
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
