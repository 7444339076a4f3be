import DeepLinkValidation
import Foundation
import PushEnvelopeCrypto
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

/// Known values shared by the suites: one admin login, its content key, and sealed envelopes.
enum Fix {
  static let createdAt: Int64 = 2_000_000_000
  static let now = Date(timeIntervalSince1970: Double(createdAt) + 100)
  /// Well after the 30-minute delivery deadline.
  static let afterDeadline = Date(timeIntervalSince1970: Double(createdAt) + 86_400)
  static let alertKeyText =
    "v1.WyJydWxlLTEiLCJzZXJ2ZXItMSIsIjIwMy4wLjExMy43IiwiMjAzMy0wNS0xOFQwMzozMzoyMCswMDowMCJd"
  static let taskID = "3c7a9e1b-5d2f-4a8c-9e6b-0d1f2a3b4c5d"
  static let runID = "9b2e4c1a-7d3f-4e8b-a6c5-1f0d2e3b4a59"
  static let serverID = "e4da3b7f-bbce-4345-9777-2b0674a318d5"
  static let securityEventID = "c4ca4238-a0b9-4382-8dcc-509a6f75849b"
  static let time = RFC3339Timestamp(secondsSince1970: 1_800_000_000, style: .utcOffset)

  static func identity(
    user: String = "ada", server: String = "https://monitor.example.com",
    installationID: String = "test-installation", loginID: String = "login-1",
    role: UserRole = .admin
  ) throws -> SessionIdentity {
    try FakeSessionContext.identity(
      user: user, server: server, installationID: installationID, loginID: loginID, role: role)
  }

  static func key(for identity: SessionIdentity) throws -> PushContentKey {
    try PushContentKeyGenerator().makeKey(
      deploymentID: identity.server.url.absoluteString, userID: identity.user.id,
      installationID: identity.installationID, scope: identity.scope)
  }

  static func content(_ kind: PushContentKind, for key: PushContentKey) -> PushContent {
    var content = PushContent(
      kind: kind, deploymentID: key.deploymentID, userID: key.userID,
      installationID: key.installationID, eventID: "5d41402a-bc4b-4a76-b971-9d911017c592",
      createdAt: createdAt, expiresAt: createdAt + 1800)
    switch kind {
    case .alert:
      content.alert = PushAlertSummary(
        alertKey: alertKeyText, status: .firing, ruleName: "CPU > 90%", serverName: "web-1")
    case .taskFailure:
      content.eventID = runID
      content.taskRun = PushTaskRunSummary(
        taskID: taskID, runID: runID, total: 3, failed: 1, timedOut: 0, offline: 0, denied: 0)
    case .security:
      content.eventID = securityEventID
      content.serverID = serverID
      content.securityEventID = securityEventID
      content.securityEventType = .sshLogin
    default:
      break
    }
    return content
  }

  static func tap(_ kind: PushContentKind, for key: PushContentKey) throws -> PushTap {
    .envelope(try PushEnvelopeSealer().seal(content(kind, for: key), with: key))
  }

  static var alertKey: AlertKey {
    get throws { try AlertKey(parsingV1: alertKeyText) }
  }

  static func detail(
    key: String = alertKeyText, rule: String = "rule-1", server: String = "server-1"
  )
    -> AlertEventDetail
  {
    AlertEventDetail(
      alertKey: key, ruleID: rule, ruleName: "CPU > 90%", serverID: server,
      serverName: "web-1", status: .firing, message: "Alert firing", triggerCount: 3,
      firstTriggeredAt: time, ruleEnabled: true)
  }

  static func row(id: Int64 = 1, task: String = taskID, run: String? = runID) -> TaskResult {
    TaskResult(
      id: id, taskID: task, serverID: serverID, output: "ok", exitCode: 0, runID: run,
      finishedAt: time)
  }

  static func me(_ identity: SessionIdentity, role: UserRole = .admin, id: String? = nil)
    -> CurrentUser
  {
    CurrentUser(
      userID: id ?? identity.user.id, username: identity.user.username, role: role,
      mustChangePassword: false)
  }

  static func server(id: String = serverID) -> ServerResponse {
    ServerResponse(id: id, name: "web-1", createdAt: time, updatedAt: time)
  }

  static func event(id: String = securityEventID, server: String = serverID) -> SecurityEvent {
    SecurityEvent(
      id: id, serverID: server, eventType: .sshLogin, severity: .info, sourceIP: "203.0.113.7",
      startedAt: time, endedAt: time, firstSeen: true, detectorSource: .journal, createdAt: time)
  }

  static func failure(_ code: ServerBeeAPIError.Code, status: Int? = nil) -> ServerBeeAPIError {
    ServerBeeAPIError(code, "scripted failure", httpStatus: status)
  }

  /// `{"data": value}` as a 200 response.
  static func reply(_ value: some Encodable) throws -> HTTPResponse {
    HTTPResponse(
      status: 200, headers: ["content-type": "application/json"],
      body: try WireJSON.encode(APIResponse(data: value)))
  }
}
