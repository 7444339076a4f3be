import Foundation
import ServerBeeModels
import Testing

@testable import PushEnvelopeCrypto

@Suite struct PushNotificationRendererTests {
  static func render(
    _ content: PushContent, _ language: PushNotificationLanguage
  ) throws -> RenderedPushNotification {
    let envelope = try Known.sealer.seal(content, with: Known.key)
    let renderer = PushNotificationRenderer(language: language)
    return renderer.render(
      Result { try Known.opener().open(envelope, with: Known.key, for: .delivery) })
  }

  static let cases: [(String, PushContent, PushNotificationLanguage, String, String)] = [
    (
      "test en", Known.content(.test), .english, "Test notification",
      "Your encrypted ServerBee notification is ready."
    ),
    ("test zh", Known.content(.test), .simplifiedChinese, "测试通知", "你的 ServerBee 加密通知已就绪。"),
    (
      "alert firing en", Known.alert(rule: "CPU > 90%", server: "web-1"), .english,
      "Alert triggered", "CPU > 90% on web-1"
    ),
    (
      "alert firing zh", Known.alert(rule: "CPU 过高", server: "东京-1"), .simplifiedChinese,
      "告警已触发", "CPU 过高（东京-1）"
    ),
    (
      "alert resolved en", Known.alert(status: .resolved, rule: "Disk", server: "db"), .english,
      "Alert recovered", "Disk on db"
    ),
    (
      "alert resolved zh", Known.alert(status: .resolved, rule: "Disk", server: "db"),
      .simplifiedChinese, "告警已恢复", "Disk（db）"
    ),
    (
      "task success en",
      Known.task(.taskSuccess, total: 7, failed: 0, timedOut: 0, offline: 0, denied: 0),
      .english, "Task run succeeded", "All 7 targets succeeded."
    ),
    (
      "task success zh",
      Known.task(.taskSuccess, total: 7, failed: 0, timedOut: 0, offline: 0, denied: 0),
      .simplifiedChinese, "任务运行成功", "全部 7 个目标运行成功。"
    ),
    (
      "task failure en", Known.task(total: 12, failed: 2, timedOut: 1, offline: 3, denied: 4),
      .english, "Task run failed",
      "Targets: 12. Failed: 2. Timed out: 1. Offline: 3. Denied: 4."
    ),
    (
      "task failure zh", Known.task(total: 12, failed: 2, timedOut: 1, offline: 3, denied: 4),
      .simplifiedChinese, "任务运行失败", "目标：12。失败：2。超时：1。离线：3。拒绝执行：4。"
    ),
    (
      "security ssh_login en", Known.security(.sshLogin), .english, "Security rule matched",
      "An SSH login from a new IP matched a security rule."
    ),
    (
      "security ssh_login zh", Known.security(.sshLogin), .simplifiedChinese, "安全规则已匹配",
      "来自新 IP 的 SSH 登录匹配了安全规则。"
    ),
    (
      "security ssh_brute_force en", Known.security(.sshBruteForce), .english,
      "Security rule matched", "SSH brute-force activity matched a security rule."
    ),
    (
      "security ssh_brute_force zh", Known.security(.sshBruteForce), .simplifiedChinese,
      "安全规则已匹配", "SSH 暴力破解活动匹配了安全规则。"
    ),
    (
      "security port_scan en", Known.security(.portScan), .english, "Security rule matched",
      "Port-scan activity matched a security rule."
    ),
    (
      "security port_scan zh", Known.security(.portScan), .simplifiedChinese, "安全规则已匹配",
      "端口扫描活动匹配了安全规则。"
    ),
  ]

  @Test(arguments: cases)
  func validatedContentRendersTheExtensionText(
    _ name: String, _ content: PushContent, _ language: PushNotificationLanguage,
    _ title: String, _ body: String
  ) throws {
    let shown = try Self.render(content, language)
    #expect(shown.title == title, "\(name)")
    #expect(shown.body == body, "\(name)")
    #expect(!shown.isFallback)
    #expect(shown.sound == "default")
  }

  @Test func zhAlertBodyUsesFullWidthParentheses() throws {
    let body = try Self.render(Known.alert(rule: "r", server: "s"), .simplifiedChinese).body
    #expect(Array(body.unicodeScalars).map(\.value) == [0x72, 0xFF08, 0x73, 0xFF09])
  }

  @Test(arguments: [
    (PushNotificationLanguage.english, "ServerBee", "Open ServerBee to view this notification."),
    (.simplifiedChinese, "ServerBee", "打开 ServerBee 查看此通知。"),
  ])
  func anyFailureRendersTheGenericFallback(
    _ language: PushNotificationLanguage, _ title: String, _ body: String
  ) throws {
    let renderer = PushNotificationRenderer(language: language)
    #expect(renderer.fallback.title == title && renderer.fallback.body == body)
    #expect(renderer.fallback.isFallback)
    // An expired, a tampered and a key-less delivery all fall back.
    let expired = try Known.sealer.seal(Known.alert(), with: Known.key)
    let rendered = renderer.render(
      Result { try Known.opener(at: 1800).open(expired, with: Known.key, for: .delivery) })
    #expect(rendered == renderer.fallback)
    var tampered = Known.envelope
    tampered.identity = String(repeating: "f", count: 64)
    #expect(
      renderer.render(Result { try Known.opener().open(tampered, with: Known.key, for: .delivery) })
        == renderer.fallback)
    struct NoKey: Error {}
    #expect(
      renderer.render(Result<ValidatedPushContent, NoKey>.failure(NoKey())) == renderer.fallback)
  }

  @Test(arguments: [
    (["zh-Hans-CN", "en-US"], PushNotificationLanguage.simplifiedChinese),
    (["zh-CN"], .simplifiedChinese), (["zh_SG"], .simplifiedChinese), (["zh"], .simplifiedChinese),
    (["en-GB", "zh-Hans"], .english), (["zh-Hant-TW", "zh-Hans"], .simplifiedChinese),
    (["zh-TW", "zh-HK"], .english), (["fr-FR", "de"], .english), ([], .english),
    (["fr", "zh-Hans"], .simplifiedChinese),
  ])
  func languageIsTheFirstSupportedPreference(
    _ preferred: [String], _ expected: PushNotificationLanguage
  ) {
    #expect(PushNotificationLanguage(preferredLanguages: preferred) == expected)
  }
}
