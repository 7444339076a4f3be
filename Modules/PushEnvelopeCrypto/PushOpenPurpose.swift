/// Why an envelope is being opened (Protocol/Push.md §3.6, §7): the purpose decides the expiry
/// rule.
public enum PushOpenPurpose: Hashable, Sendable {
  /// Showing a just-delivered notification (the notification service extension): the content
  /// must not have expired.
  case delivery
  /// Handling a tap on a shown notification: the same checks except expiry, so a notification
  /// stays navigable after its 30 minutes (the current server authorisation still applies).
  case tap
}
