import ServerBeeRoutes
import ServerBeeTransport

/// Alerts (Protocol/Alerts.md, Protocol/Push.md §4, Protocol/Alerts.md §5, §6.2–§7): alert events,
/// alert rules (the list, one rule, and turning it on or off), notification channels (list,
/// change, test), and the control API's firing, resolving, rules, maintenance windows and
/// channels.
///
/// Its tables (`alert_rules`, `alert_states`, with the rule parameters and
/// `maintenance_windows` of migration 4) are in ``Schema/baseMigrations``; the channels'
/// tables are its migration 10. Security rules are
/// alert rules too: the security area admits its events against them through the shared
/// alert states (`SimulatorCore+AlertStates.swift`).
struct AlertsArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.Alerts.alertEvents, Self.alertEvents),
    route(RouteCatalogue.Alerts.alertEvent, Self.alertEventDetail),
    route(RouteCatalogue.Alerts.alertRules, Self.alertRules),
    route(RouteCatalogue.Alerts.alertRule, Self.alertRuleDetail),
    route(RouteCatalogue.Alerts.alertRuleStates, Self.alertRuleStates),
    route(RouteCatalogue.Alerts.setAlertRule, Self.updateAlertRule),
    route(RouteCatalogue.Alerts.notificationChannels, Self.notificationChannels),
    route(RouteCatalogue.Alerts.setNotificationChannel, Self.updateNotificationChannel),
    route(RouteCatalogue.Alerts.testNotificationChannel, Self.testNotificationChannel),
  ]

  static let controlRoutes: [Route] = [
    control("POST", "__simulator/alerts/fire", Self.controlFireAlert),
    control("POST", "__simulator/alerts/resolve", Self.controlResolveAlert),
    control("POST", "__simulator/alert-rules", Self.controlCreateRule),
    control("PATCH", "__simulator/alert-rules/*", Self.controlUpdateRule),
    control("DELETE", "__simulator/alert-rules/*", Self.controlDeleteRule),
    control("POST", "__simulator/maintenance", Self.controlCreateMaintenance),
    control("DELETE", "__simulator/maintenance/*", Self.controlDeleteMaintenance),
    control("POST", "__simulator/notification-channels", Self.controlCreateChannel),
    control("GET", "__simulator/notification-channels/*", Self.controlChannel),
  ]

  static let migrations: [Migration] = [
    Migration(
      version: 10,
      [
        // Notification channels (Protocol/Alerts.md §7). `config_json` is the channel's
        // configuration as JSON text (its secrets); `test_failure`, set by the control API, is
        // the delivery error a test answers with, since the simulator sends nothing.
        """
        CREATE TABLE notification_channels (
          id TEXT PRIMARY KEY, name TEXT NOT NULL, notify_type TEXT NOT NULL,
          config_json TEXT NOT NULL, enabled INTEGER NOT NULL, created_at INTEGER NOT NULL,
          test_failure TEXT)
        """,
        // Each test sent through a channel, for the control API.
        """
        CREATE TABLE notification_channel_tests (
          id INTEGER PRIMARY KEY AUTOINCREMENT, channel_id TEXT NOT NULL,
          sent_at INTEGER NOT NULL)
        """,
      ])
  ]
}
