import Foundation
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

/// A client over a fresh stub, per test.
struct SUT {
  let http = StubHTTPTransport()
  let api: ServerBeeAPIClient

  init() throws {
    api = ServerBeeAPIClient(
      server: try ServerURL("https://bee.example:9527"), transport: http)
  }

  /// The URL of the only request received, as sent.
  func onlyURL(sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
    let received = await http.received
    #expect(received.count == 1, sourceLocation: sourceLocation)
    return try #require(received.first, sourceLocation: sourceLocation).url.absoluteString
  }
}

/// Sample wire values, encoded the way a server writes them.
enum Samples {
  static let base = "https://bee.example:9527"
  static let time = RFC3339Timestamp(secondsSince1970: 1_800_000_000, style: .zulu)
  static let offsetTime = RFC3339Timestamp(secondsSince1970: 1_800_000_000, style: .utcOffset)

  /// `{"data": value}` as a 200 response.
  static func reply(_ value: some Encodable) throws -> HTTPResponse {
    HTTPResponse(
      status: 200, headers: ["content-type": "application/json"],
      body: try WireJSON.encode(APIResponse(data: value)))
  }

  static let server = ServerResponse(
    id: "s1", name: "vps-a", cpuCores: 4, memTotal: 8 << 30, groupID: "g1", createdAt: time,
    updatedAt: time)
  static let group = ServerGroup(id: "g1", name: "Production", weight: 10, createdAt: time)
  static let record = ServerRecord(
    rowID: 7, serverID: "s1", time: time, cpu: 12.5, memUsed: 1 << 30, load1: 0.5, processCount: 99)
  static let event = AlertEvent(
    alertKey: v1Key, ruleID: "rule-1", ruleName: "High CPU", serverID: "s1",
    serverName: "vps-a", status: .firing, eventAt: offsetTime, count: 3)
  static let v1Key =
    "v1.WyJydWxlLTEiLCJzZXJ2ZXItMSIsIjIwMy4wLjExMy43IiwiMjAzMy0wNS0xOFQwMzozMzoyMCswMDowMCJd"
  static func detail(key: String) -> AlertEventDetail {
    AlertEventDetail(
      alertKey: key, ruleID: "rule-1", ruleName: "High CPU", serverID: "s1",
      serverName: "vps-a", status: .firing, message: "Alert firing — triggered 3 time(s)",
      triggerCount: 3, firstTriggeredAt: offsetTime, ruleEnabled: true)
  }
  static let rule = AlertRule(
    id: "rule-1", name: "High CPU", enabled: true, rulesJSON: #"[{"rule_type":"cpu"}]"#,
    triggerMode: .always, createdAt: time, updatedAt: time)
  static let ruleState = AlertRuleState(
    serverID: "s1", serverName: "vps-a", firstTriggeredAt: time, lastNotifiedAt: nil, count: 2,
    resolved: false, resolvedAt: nil)
  static let task = ServerTask(
    id: "t1", command: "uptime", serverIDs: ["s1", "s2"], createdAt: time,
    taskType: .scheduled, name: "nightly", cronExpression: "0 0 3 * * *")
  static func result(id: Int64, runID: String?, server: String = "s1") -> TaskResult {
    TaskResult(
      id: id, taskID: "t1", serverID: server, output: "ok", exitCode: 0, runID: runID,
      finishedAt: time)
  }
  static func securityEvent(id: String) -> SecurityEvent {
    SecurityEvent(
      id: id, serverID: "s1", eventType: .sshLogin, severity: .info, sourceIP: "203.0.113.7",
      startedAt: offsetTime, endedAt: offsetTime, firstSeen: true, detectorSource: .journal,
      createdAt: offsetTime)
  }
  static let user = CurrentUser(
    userID: "u1", username: "ada", role: .admin, mustChangePassword: false)
  static let device = MobileDevice(
    id: "d1", deviceName: "Ada's iPhone", installationID: "INST-1", createdAt: offsetTime,
    lastUsedAt: offsetTime)
}
