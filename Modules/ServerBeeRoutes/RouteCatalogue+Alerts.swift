public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// Alert events, alert rules and notification channels (`Documentation/Protocol/Alerts.md`).
  public enum Alerts {
    /// `GET /api/alert-events`.
    public static let alertEvents = APIRoute<NoPath, NoBody, [AlertEvent]>(
      "alertEvents", .get, "/api/alert-events", .member, query: ["limit"],
      summary: "recent alert events, newest first")
    /// `GET /api/alert-events/{alert_key}`.
    public static let alertEvent = APIRoute<PathID, NoBody, AlertEventDetail>(
      "alertEvent", .get, "/api/alert-events/{alert_key}", .member,
      summary: "one alert's current cycle")
    /// `GET /api/alert-rules`.
    public static let alertRules = APIRoute<NoPath, NoBody, [AlertRule]>(
      "alertRules", .get, "/api/alert-rules", .admin, summary: "every alert rule")
    /// `GET /api/alert-rules/{id}`.
    public static let alertRule = APIRoute<PathID, NoBody, AlertRule>(
      "alertRule", .get, "/api/alert-rules/{id}", .admin, summary: "one alert rule")
    /// `GET /api/alert-rules/{id}/states`.
    public static let alertRuleStates = APIRoute<PathID, NoBody, [AlertRuleState]>(
      "alertRuleStates", .get, "/api/alert-rules/{id}/states", .admin,
      summary: "one rule's state on each server")
    /// `PUT /api/alert-rules/{id}`.
    public static let setAlertRule = APIRoute<PathID, AlertRuleToggle, AlertRule>(
      "setAlertRule", .put, "/api/alert-rules/{id}", .admin,
      summary: "turn an alert rule on or off")
    /// `GET /api/notifications`.
    public static let notificationChannels = APIRoute<NoPath, NoBody, [NotificationChannel]>(
      "notificationChannels", .get, "/api/notifications", .admin,
      summary: "the notification channels")
    /// `PUT /api/notifications/{id}`.
    public static let setNotificationChannel =
      APIRoute<PathID, NotificationChannelToggle, NotificationChannel>(
        "setNotificationChannel", .put, "/api/notifications/{id}", .admin,
        summary: "turn a notification channel on or off")
    /// `POST /api/notifications/{id}/test`.
    public static let testNotificationChannel = APIRoute<PathID, NoBody, Ignored>(
      "testNotificationChannel", .post, "/api/notifications/{id}/test", .admin,
      summary: "send a test through a channel")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      alertEvents.erased, alertEvent.erased, alertRules.erased, alertRule.erased,
      alertRuleStates.erased, setAlertRule.erased, notificationChannels.erased,
      setNotificationChannel.erased, testNotificationChannel.erased,
    ]
  }
}
