import Foundation
import ServerBeeModels

@testable import PushEnvelopeCrypto

/// Known values shared by the suites. The envelope below was produced independently with Python
/// `cryptography` (AESGCM) and `json.dumps(separators=(",", ":"))`, not by this module.
enum Known {
  static let deploymentID = "https://serverbee.test"
  static let userID = "6a1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
  static let installationID = "test-install"
  static let keyID = "0f8e7d6c-5b4a-4938-8271-6a5b4c3d2e1f"
  /// Bytes 0x00…0x1f.
  static let keyBase64 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
  /// Bytes 0xa0…0xab.
  static let nonce: [UInt8] = Array(0xA0...0xAB)
  static let identity = "0f2bdb9bfab542b966adfcc551b85062114bc75a496be8b8ceb1332f1c5741d0"
  static let scope = "8833a467a98f4e1c73b0e0b079d7243c735affe53d60f76bfe1d6870e6dc4ca7"
  static let createdAt: Int64 = 2_000_000_000
  static let eventID = "11111111-1111-4111-8111-111111111111"
  static let alertKey =
    "v1.WyJydWxlLTEiLCJzZXJ2ZXItMSIsIjIwMy4wLjExMy43IiwiMjAzMy0wNS0xOFQwMzozMzoyMCswMDowMCJd"
  static let taskID = "3c7a9e1b-5d2f-4a8c-9e6b-0d1f2a3b4c5d"
  static let runID = "9b2e4c1a-7d3f-4e8b-a6c5-1f0d2e3b4a59"
  static let serverID = "e4da3b7f-bbce-4345-9777-2b0674a318d5"
  static let securityEventID = "c4ca4238-a0b9-4382-8dcc-509a6f75849b"

  static let envelope = PushEnvelope(
    version: 1, keyID: keyID, identity: identity, nonce: "oKGio6Slpqeoqaqr",
    ciphertext:
      "nToXRCuvIIVAEeKgc1js/BTJKXz9zi8J8np57xuJTyO6AjOP3Bh8Eiz5dr5sCOGcIjUyLRGkOFJjK3g71i/s1JaGp1lR"
      + "lILSl9GbNbur+dzgP8qSp+yhGdkRE6PUqiul7rZJmGCa67my+W8+9vyMREgxFcexW8RVS+3khsAwgTnoeN4MpyPs"
      + "exV13O5kL/+i17DJSYTyy73M/IzEnvYZGvcpLpyCW3EnrzIaE17/h9BGF8ypM1efD7OzVBV+4W0yVUIprT+wz8/Jb3D"
      + "/eRQChWLZ1MQdBqDIhLM9lgKnrkVSYwIRiV3pDviMciL6ijA52n1PYsfqFJKVf5kw")

  static let key = PushContentKey(
    keyID: keyID, key: keyBase64, deploymentID: deploymentID, userID: userID,
    installationID: installationID, scope: scope)

  /// A content of any kind with the known identity and a valid 1800 s lifetime.
  static func content(
    _ kind: PushContentKind, eventID: String = Known.eventID, createdAt: Int64 = Known.createdAt,
    expiresAt: Int64? = nil, serverID: String? = nil, securityEventID: String? = nil,
    securityEventType: PushSecurityEventType? = nil, taskRun: PushTaskRunSummary? = nil,
    alert: PushAlertSummary? = nil
  ) -> PushContent {
    PushContent(
      kind: kind, deploymentID: deploymentID, userID: userID, installationID: installationID,
      eventID: eventID, createdAt: createdAt, expiresAt: expiresAt ?? createdAt + 1800,
      serverID: serverID, securityEventID: securityEventID,
      securityEventType: securityEventType, taskRun: taskRun, alert: alert)
  }

  static func alert(
    status: PushAlertStatus = .firing, key: String = Known.alertKey,
    rule: String = "CPU > 90%", server: String = "web-1"
  ) -> PushContent {
    content(
      .alert, eventID: "5d41402a-bc4b-2a76-b971-9d911017c592",
      alert: PushAlertSummary(alertKey: key, status: status, ruleName: rule, serverName: server))
  }

  static func task(
    _ kind: PushContentKind = .taskFailure, total: Int64 = 12, failed: Int64 = 2,
    timedOut: Int64 = 1, offline: Int64 = 3, denied: Int64 = 0, taskID: String = Known.taskID,
    runID: String = Known.runID, eventID: String = Known.runID
  ) -> PushContent {
    content(
      kind, eventID: eventID,
      taskRun: PushTaskRunSummary(
        taskID: taskID, runID: runID, total: total, failed: failed, timedOut: timedOut,
        offline: offline, denied: denied))
  }

  static func security(
    _ type: PushSecurityEventType = .sshLogin, serverID: String = Known.serverID,
    securityEventID: String = Known.securityEventID
  ) -> PushContent {
    content(
      .security, eventID: Known.securityEventID, serverID: serverID,
      securityEventID: securityEventID, securityEventType: type)
  }

  /// A sealer whose nonce is always ``nonce``.
  static let sealer = PushEnvelopeSealer(randomBytes: { count in Array(nonce.prefix(count)) })

  /// An opener whose clock reads `createdAt + offset` seconds.
  static func opener(at offset: Double = 100) -> PushEnvelopeOpener {
    PushEnvelopeOpener(now: { Date(timeIntervalSince1970: Double(createdAt) + offset) })
  }

  static func bytes(fromHex hex: String) -> [UInt8] {
    var out: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
      index = next
    }
    return out
  }
}
