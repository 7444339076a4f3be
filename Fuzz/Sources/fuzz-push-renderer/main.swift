// The notification renderer (Protocol/Push.md §6) in English and Simplified Chinese, fed with
// contents that passed the opener (fuzzer bytes sealed with the test key), and the language
// choice from a preference list. Input: language tags, one per line, then a NUL, then the
// content JSON. Invariants: the language is the first `en…`/`zh-Hans…`/`zh-CN`/`zh-SG`/`zh`
// tag, English otherwise; every failure renders the generic fallback; a validated content
// never renders the fallback, has a non-empty title and body, uses the title of its kind in
// its language, and names the alert's rule and server; the two languages never share a title.
import Foundation
import FuzzSupport
import PushEnvelopeCrypto
import PushFuzzSupport
import ServerBeeModels

let english = PushNotificationRenderer(language: .english)
let chinese = PushNotificationRenderer(language: .simplifiedChinese)
let titles: [PushNotificationLanguage: Set<String>] = [
  .english: [
    "Alert triggered", "Alert recovered", "Task run succeeded", "Task run failed",
    "Security rule matched", "Test notification",
  ],
  .simplifiedChinese: ["告警已触发", "告警已恢复", "任务运行成功", "任务运行失败", "安全规则已匹配", "测试通知"],
]

func expectedLanguage(_ tags: [String]) -> PushNotificationLanguage {
  for tag in tags {
    let lower = tag.lowercased().replacingOccurrences(of: "_", with: "-")
    if lower == "en" || lower.hasPrefix("en-") { return .english }
    if lower == "zh" || ["zh-hans", "zh-cn", "zh-sg"].contains(where: { lower.hasPrefix($0) }) {
      return .simplifiedChinese
    }
  }
  return .english
}

func fuzzOne(_ bytes: [UInt8]) {
  let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
  let tags = String(decoding: bytes[..<split], as: UTF8.self)
    .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  let language = PushNotificationLanguage(preferredLanguages: tags)
  check(language == expectedLanguage(tags), "\(tags) picks \(language)")

  let plaintext = Array(bytes[min(split + 1, bytes.endIndex)...])
  let result = openChecked(sealForTestKey(plaintext), for: .tap)
  for renderer in [english, chinese] {
    let shown = renderer.render(result)
    guard case .success(let validated) = result else {
      check(shown == renderer.fallback && shown.isFallback, "a failure is not the fallback")
      continue
    }
    check(!shown.isFallback && shown != renderer.fallback, "a valid content shows the fallback")
    check(!shown.title.isEmpty && !shown.body.isEmpty, "an empty title or body")
    check(
      titles[renderer.language]?.contains(shown.title) == true,
      "title \(shown.title.debugDescription) in \(renderer.language)")
    check(shown.sound == "default", "sound")
    if let alert = validated.content.alert {
      check(
        shown.body.hasPrefix(alert.ruleName) && shown.body.contains(alert.serverName),
        "the alert body does not name the rule and server")
    }
    if let run = validated.content.taskRun {
      check(shown.body.contains(String(run.total)), "the task body has no total")
    }
  }
  if case .success(let validated) = result {
    check(
      english.render(validated).title != chinese.render(validated).title,
      "both languages share a title")
  }
}

runFuzzer(fuzzOne)
