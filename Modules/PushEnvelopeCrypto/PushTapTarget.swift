public import ServerBeeModels

/// Where a tap on a push notification leads (Protocol/Push.md §7 step 3).
///
/// Only a ``ValidatedPushContent`` has a target, so a rejected envelope can never produce one.
/// Each target must still be loaded with the current authenticated API; DeepLinkValidation does
/// that.
public enum PushTapTarget: Hashable, Sendable {
  /// The alert detail of this `v1.` key (`GET /api/alert-events/{alert_key}`).
  case alertDetail(alertKey: AlertKey)
  /// The results of one task run (`GET /api/tasks/{task_id}/results?run_id=…`).
  case taskRun(taskID: String, runID: String)
  /// One security event on one server.
  case securityEvent(serverID: String, eventID: String)
  /// The account's home screen (test pushes).
  case home
}
