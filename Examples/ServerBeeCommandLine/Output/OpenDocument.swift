import DeepLinkValidation
import ServerBeeModels

/// The `open --json` document: the screen, then what it shows.
struct OpenDocument: Encodable {
  /// `alert_detail`, `task_run_results`, `security_event`, `home` or `fallback`.
  var destination: String
  var alert: AlertEventDetail?
  var taskID: String?
  var runID: String?
  var results: [TaskResult]?
  var event: SecurityEvent?
  /// For `fallback`: `alert_not_found` or `unavailable`.
  var screen: String?
  var title: String?
  var action: String?
  var reason: String?

  enum CodingKeys: String, CodingKey {
    case destination, alert
    case taskID = "task_id"
    case runID = "run_id"
    case results, event, screen, title, action, reason
  }

  init(alert: AlertEventDetail) {
    destination = "alert_detail"
    self.alert = alert
  }

  init(taskID: String, runID: String, results: [TaskResult]) {
    destination = "task_run_results"
    self.taskID = taskID
    self.runID = runID
    self.results = results
  }

  init(event: SecurityEvent) {
    destination = "security_event"
    self.event = event
  }

  /// The home screen (a test notification).
  static let home = OpenDocument(destination: "home")

  private init(destination: String) {
    self.destination = destination
  }

  init(fallback: TapFallback, reason: TapUnavailableReason) {
    destination = "fallback"
    screen = fallback == .alertNotFound ? "alert_not_found" : "unavailable"
    title = fallback.title
    action = fallback.actionTitle
    self.reason = TapText.key(reason)
  }
}
