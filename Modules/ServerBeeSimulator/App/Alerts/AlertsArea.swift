import ServerBeeTransport

/// Alerts (wire contract v1 §6, wire contract v2 §5, §9.1; app routes §3.11): alert events,
/// alert rules (the list, one rule, and turning it on or off), and the control API's firing,
/// resolving, rules and maintenance windows.
///
/// Its tables (`alert_rules`, `alert_states`, with the rule parameters and
/// `maintenance_windows` of migration 4) are in ``Schema/baseMigrations``. Security rules are
/// alert rules too: the security area admits its events against them through the shared
/// alert states (`SimulatorCore+AlertStates.swift`).
struct AlertsArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route("GET", "api/alert-events", .protected, Self.alertEvents),
    route("GET", "api/alert-events/*", .protected, Self.alertEventDetail),
    route("GET", "api/alert-rules", .admin, Self.alertRules),
    route("GET", "api/alert-rules/*", .admin, Self.alertRuleDetail),
    route("PUT", "api/alert-rules/*", .admin, Self.updateAlertRule),
  ]

  static let controlRoutes: [Route] = [
    control("POST", "__simulator/alerts/fire", Self.controlFireAlert),
    control("POST", "__simulator/alerts/resolve", Self.controlResolveAlert),
    control("POST", "__simulator/alert-rules", Self.controlCreateRule),
    control("PATCH", "__simulator/alert-rules/*", Self.controlUpdateRule),
    control("DELETE", "__simulator/alert-rules/*", Self.controlDeleteRule),
    control("POST", "__simulator/maintenance", Self.controlCreateMaintenance),
    control("DELETE", "__simulator/maintenance/*", Self.controlDeleteMaintenance),
  ]

  static let migrations: [Migration] = []
}
