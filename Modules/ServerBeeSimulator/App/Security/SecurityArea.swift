import ServerBeeRoutes
import ServerBeeTransport

/// Security events (Protocol/Security.md, Protocol/Push.md §4): the event list, statistics, one
/// event and deleting one, and the control API's raw events, which security rules may turn
/// into pushes.
///
/// Its table (`security_events`) is in ``Schema/baseMigrations``. Security rules are alert
/// rules (`alert_rules`), and an admitted event records its state in `alert_states` through
/// ``SimulatorCore/recordTrigger(_:serverID:eventKey:decide:)``.
struct SecurityArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.Security.securityStats, Self.securityStats),
    route(RouteCatalogue.Security.securityEvents, Self.securityEvents),
    route(RouteCatalogue.Security.securityEvent, Self.securityEventDetail),
    route(RouteCatalogue.Security.deleteSecurityEvent, Self.deleteSecurityEvent),
  ]

  static let controlRoutes: [Route] = [
    control("POST", "__simulator/security-events", Self.controlSecurityEvent)
  ]

  static let migrations: [Migration] = []
}
