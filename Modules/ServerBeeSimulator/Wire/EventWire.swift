import Foundation
import ServerBeeModels

/// One alert state joined with its rule and server names.
struct AlertStateRow: Sendable {
  var ruleID: String
  var ruleName: String?
  var ruleType: String?
  var ruleEnabled: Bool
  var triggerMode: String
  var serverID: String
  var serverName: String?
  var eventKey: String
  var firstTriggeredAt: Int64
  var count: Int64
  var resolved: Bool
  var resolvedAt: Int64?
  var updatedAt: Int64

  /// The `v1.` key: base64url of `[rule_id, server_id, event_key, first_triggered_at]` (v2 §9.1).
  var alertKey: String {
    let parts = [
      ruleID, serverID, eventKey, timestamp(firstTriggeredAt, .utcOffset).formatted(.utcOffset),
    ]
    let json = (try? WireJSON.encode(parts)) ?? Data()
    return "v1." + Crypto.base64URL(Array(json))
  }
}

/// An element of `GET /api/alert-events` (v2 form: `alert_key` first).
struct AlertEventWire: Encodable, Sendable {
  let row: AlertStateRow

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("alert_key", row.alertKey)
    try w("rule_id", row.ruleID)
    try w("rule_name", row.ruleName ?? "Unknown")
    try w("server_id", row.serverID)
    try w("server_name", row.serverName ?? "Unknown")
    try w("status", row.resolved ? "resolved" : "firing")
    let eventAt = row.resolved ? (row.resolvedAt ?? row.firstTriggeredAt) : row.firstTriggeredAt
    try w("event_at", timestamp(eventAt, .utcOffset))
    try w("resolved_at", timestamp(row.resolvedAt, .utcOffset))
    try w("count", row.count)
  }
}

/// `GET /api/alert-events/{key}` (v1 §6.3).
struct AlertDetailWire: Encodable, Sendable {
  let key: String
  let row: AlertStateRow

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("alert_key", key)
    try w("rule_id", row.ruleID)
    try w("rule_name", row.ruleName ?? "Unknown")
    try w("server_id", row.serverID)
    try w("server_name", row.serverName ?? "Unknown")
    try w("status", row.resolved ? "resolved" : "firing")
    let message =
      row.resolved
      ? "Alert resolved after \(row.count) trigger(s)"
      : "Alert firing \u{2014} triggered \(row.count) time(s)"
    try w("message", message)
    try w("trigger_count", row.count)
    try w("first_triggered_at", timestamp(row.firstTriggeredAt, .utcOffset))
    try w("resolved_at", timestamp(row.resolvedAt, .utcOffset))
    try w("rule_enabled", row.ruleEnabled)
    try w("rule_trigger_mode", row.triggerMode)
  }
}

/// An alert rule as the admin list shows it (a reduced form: id, name, type, enabled, mode).
struct AlertRuleWire: Encodable, Sendable {
  let id: String
  let name: String
  let ruleType: String
  let enabled: Bool
  let triggerMode: String
  let createdAt: Int64

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("id", id)
    try w("name", name)
    try w("enabled", enabled)
    try w("rules_json", "[{\"rule_type\":\"\(ruleType)\"}]")
    try w("trigger_mode", triggerMode)
    try w("created_at", timestamp(createdAt, .zulu))
    try w("updated_at", timestamp(createdAt, .zulu))
  }
}

/// A task (v1 §7.1).
struct TaskWire: Encodable, Sendable {
  var id: String
  var command: String
  var serverIDs: [String]
  var createdAt: Int64
  var taskType: String
  var name: String?
  var cronExpression: String?
  var enabled: Bool
  var timeout: Int64?
  var retryCount: Int64
  var retryInterval: Int64
  var lastRunAt: Int64?
  var nextRunAt: Int64?

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("id", id)
    try w("command", command)
    try w("server_ids", serverIDs)
    try w("created_at", timestamp(createdAt, .zulu))
    try w("task_type", taskType)
    try w("name", name)
    try w("cron_expression", cronExpression)
    try w("enabled", enabled)
    try w("timeout", timeout)
    try w("retry_count", retryCount)
    try w("retry_interval", retryInterval)
    try w("last_run_at", timestamp(lastRunAt, .zulu))
    try w("next_run_at", timestamp(nextRunAt, .zulu))
  }
}

/// A task result row (v1 §7.3).
struct TaskResultWire: Encodable, Sendable {
  var id: Int64
  var taskID: String
  var serverID: String
  var output: String
  var exitCode: Int64
  var runID: String?
  var attempt: Int64
  var startedAt: Int64?
  var finishedAt: Int64

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("id", id)
    try w("task_id", taskID)
    try w("server_id", serverID)
    try w("output", output)
    try w("exit_code", exitCode)
    try w("run_id", runID)
    try w("attempt", attempt)
    try w("started_at", timestamp(startedAt, .zulu))
    try w("finished_at", timestamp(finishedAt, .zulu))
  }
}

/// A stored security event (v1 §8.2).
struct SecurityEventRow: Sendable {
  var id: String
  var serverID: String
  var eventType: String
  var severity: String
  var sourceIP: String
  var sourcePort: Int64?
  var username: String?
  var startedAt: Int64
  var endedAt: Int64
  var firstSeen: Bool
  var detectorSource: String
  var evidence: JSONValue?
  var createdAt: Int64
}

/// The REST form (v1 §8.2): `started_at`/`ended_at` as `+00:00` text.
struct SecurityEventWire: Encodable, Sendable {
  let row: SecurityEventRow

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("id", row.id)
    try w("server_id", row.serverID)
    try w("event_type", row.eventType)
    try w("severity", row.severity)
    try w("source_ip", row.sourceIP)
    try w("source_port", row.sourcePort)
    try w("username", row.username)
    try w("started_at", timestamp(row.startedAt * 1_000_000_000, .utcOffset))
    try w("ended_at", timestamp(row.endedAt * 1_000_000_000, .utcOffset))
    try w("first_seen", row.firstSeen)
    try w("detector_source", row.detectorSource)
    try w("evidence", row.evidence)
    try w("created_at", timestamp(row.createdAt, .utcOffset))
  }
}

/// `{"items":[…],"next_cursor":…}` (v1 §8.1).
struct SecurityPageWire: Encodable, Sendable {
  let items: [SecurityEventWire]
  let nextCursor: String?

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("items", items)
    try w("next_cursor", nextCursor)
  }
}

/// The WebSocket form (v1 §8.4): unix-second times, no `id`/`created_at` in `event`.
struct SecurityEventMessageWire: Encodable, Sendable {
  let row: SecurityEventRow

  private struct Payload: Encodable {
    let row: SecurityEventRow
    func encode(to encoder: any Encoder) throws {
      var w = WireWriter(encoder)
      try w("event_type", row.eventType)
      try w("severity", row.severity)
      try w("source_ip", row.sourceIP)
      try w("source_port", row.sourcePort)
      try w("username", row.username)
      try w("started_at", row.startedAt)
      try w("ended_at", row.endedAt)
      try w("first_seen", row.firstSeen)
      try w("detector_source", row.detectorSource)
      try w("evidence", row.evidence)
    }
  }

  func encode(to encoder: any Encoder) throws {
    var w = WireWriter(encoder)
    try w("type", "security_event")
    try w("server_id", row.serverID)
    try w("event_id", row.id)
    try w("event", Payload(row: row))
  }
}
