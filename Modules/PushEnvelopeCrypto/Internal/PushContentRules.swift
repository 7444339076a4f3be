import ServerBeeModels

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The content rules of Protocol/Push.md §3.4, §3.6, separated from the cryptography so each is
/// readable.
enum PushContentRules {
  static let lifetime: Int64 = 1800
  static let futureSkew: Double = 60
  static let maximumNameLength = 120
  static let maximumTaskTotal: Int64 = 100_000

  /// Step 5: lifetime exactly 1800 s, creation at most 60 s ahead, and (delivery only) not
  /// expired.
  static func checkTimes(
    _ content: PushContent, purpose: PushOpenPurpose, now: Date
  ) throws(PushEnvelopeCryptoError) {
    let (lifetime, overflow) = content.expiresAt.subtractingReportingOverflow(content.createdAt)
    guard !overflow, lifetime == Self.lifetime else {
      throw PushEnvelopeCryptoError(.invalidLifetime, "the content lifetime is not 1800 seconds")
    }
    let nowSeconds = now.timeIntervalSince1970
    guard nowSeconds.isFinite else {
      throw PushEnvelopeCryptoError(.notYetValid, "the clock is not usable")
    }
    guard Double(content.createdAt) <= nowSeconds + futureSkew else {
      throw PushEnvelopeCryptoError(
        .notYetValid, "the content was created more than 60 seconds in the future")
    }
    if purpose == .delivery, !(Double(content.expiresAt) > nowSeconds) {
      throw PushEnvelopeCryptoError(.expired, "the content expired")
    }
  }

  /// Step 6: the per-kind structure. Returns where a tap leads.
  static func checkKind(_ content: PushContent) throws(PushEnvelopeCryptoError) -> PushTapTarget {
    switch content.kind {
    case .test:
      try onlyPresent([], in: content)
      return .home
    case .alert:
      try onlyPresent([.alert], in: content)
      return try checkAlert(content.alert)
    case .taskFailure, .taskSuccess:
      try onlyPresent([.taskRun], in: content)
      return try checkTaskRun(content.taskRun, content: content)
    case .security:
      try onlyPresent([.serverID, .securityEventID, .securityEventType], in: content)
      return try checkSecurity(content)
    default:
      throw PushEnvelopeCryptoError(
        .unknownKind, "unknown content kind \"\(content.kind.rawValue.prefix(32))\"")
    }
  }

  enum OptionalKey: String, CaseIterable {
    case serverID = "server_id"
    case securityEventID = "security_event_id"
    case securityEventType = "security_event_type"
    case taskRun = "task_run"
    case alert
  }

  private static func onlyPresent(
    _ allowed: [OptionalKey], in content: PushContent
  ) throws(PushEnvelopeCryptoError) {
    // Plain loops over five keys: the dictionary and set lookups this replaced were about 6 k
    // instructions per push. Stray keys are reported before missing ones, as before.
    for key in OptionalKey.allCases where isPresent(key, in: content) && !allowed.contains(key) {
      throw invalid("a \(content.kind.rawValue) content must not carry \(key.rawValue)")
    }
    for key in allowed where !isPresent(key, in: content) {
      throw invalid("a \(content.kind.rawValue) content needs \(key.rawValue)")
    }
  }

  private static func isPresent(_ key: OptionalKey, in content: PushContent) -> Bool {
    switch key {
    case .serverID: content.serverID != nil
    case .securityEventID: content.securityEventID != nil
    case .securityEventType: content.securityEventType != nil
    case .taskRun: content.taskRun != nil
    case .alert: content.alert != nil
    }
  }

  private static func checkAlert(_ alert: PushAlertSummary?) throws(PushEnvelopeCryptoError)
    -> PushTapTarget
  {
    guard let alert else { throw invalid("an alert content needs alert") }
    guard alert.status == .firing || alert.status == .resolved else {
      throw invalid("the alert status is not firing or resolved")
    }
    guard alert.ruleName.unicodeScalars.count <= maximumNameLength,
      alert.serverName.unicodeScalars.count <= maximumNameLength
    else { throw invalid("an alert name is longer than 120 characters") }
    guard let key = try? AlertKey(parsingV1: alert.alertKey) else {
      throw invalid("the alert key is not a valid v1. key")
    }
    return .alertDetail(alertKey: key)
  }

  private static func checkTaskRun(
    _ run: PushTaskRunSummary?, content: PushContent
  ) throws(PushEnvelopeCryptoError) -> PushTapTarget {
    guard let run else { throw invalid("a task content needs task_run") }
    guard isUUID(run.taskID), isUUID(run.runID) else {
      throw invalid("the task or run id is not a UUID")
    }
    guard content.eventID == run.runID else { throw invalid("event_id is not the run id") }
    guard run.total > 0, run.total <= maximumTaskTotal else {
      throw invalid("the task total is outside 1…100000")
    }
    let counts = [run.failed, run.timedOut, run.offline, run.denied]
    guard counts.allSatisfy({ (0...run.total).contains($0) }) else {
      throw invalid("a task count is outside 0…total")
    }
    // Each count is at most 100000, so the sum cannot overflow.
    guard counts.reduce(0, +) <= run.total else {
      throw invalid("the task counts add up to more than the total")
    }
    if content.kind == .taskSuccess {
      guard run.isAllSucceeded else { throw invalid("a task success has unsuccessful targets") }
    } else {
      guard !run.isAllSucceeded else { throw invalid("a task failure has no failed targets") }
    }
    return .taskRun(taskID: run.taskID, runID: run.runID)
  }

  private static func checkSecurity(_ content: PushContent) throws(PushEnvelopeCryptoError)
    -> PushTapTarget
  {
    guard let serverID = content.serverID, isUUID(serverID) else {
      throw invalid("the security server id is not a UUID")
    }
    guard content.securityEventID == content.eventID else {
      throw invalid("security_event_id is not the event id")
    }
    let known: Set<PushSecurityEventType> = [.sshLogin, .sshBruteForce, .portScan]
    guard let type = content.securityEventType, known.contains(type) else {
      throw invalid("the security event type is unknown")
    }
    return .securityEvent(serverID: serverID, eventID: content.eventID)
  }

  static func isUUID(_ text: String) -> Bool { Encoding.isUUID(text) }

  private static func invalid(_ message: String) -> PushEnvelopeCryptoError {
    PushEnvelopeCryptoError(.invalidContent, message)
  }
}
