import ServerBeeModels

/// The language of rendered notification texts: the two the ServerBee extension ships
/// (Protocol/Push.md §6).
public enum PushNotificationLanguage: Hashable, Sendable {
  /// English (the development language and the fallback).
  case english
  /// Simplified Chinese (`zh-Hans`).
  case simplifiedChinese

  /// Picks the first supported language from a preference list, as the system does for a bundle
  /// localised in `en` and `zh-Hans`.
  ///
  /// `en…` picks English; `zh-Hans…`, `zh-CN`, `zh-SG` and a bare `zh` pick Simplified Chinese;
  /// other languages (including `zh-Hant`, `zh-TW`, `zh-HK`) are skipped. English is the
  /// fallback.
  /// - Parameter preferredLanguages: BCP 47 tags, most preferred first (for example
  ///   `Locale.preferredLanguages`).
  public init(preferredLanguages: [String]) {
    for tag in preferredLanguages {
      let lower = String(tag.lowercased().map { $0 == "_" ? "-" : $0 })
      if lower == "en" || lower.hasPrefix("en-") {
        self = .english
        return
      }
      if lower == "zh" || lower.hasPrefix("zh-hans") || lower.hasPrefix("zh-cn")
        || lower.hasPrefix("zh-sg")
      {
        self = .simplifiedChinese
        return
      }
    }
    self = .english
  }
}

/// The title and body to show for one push notification.
public struct RenderedPushNotification: Hashable, Sendable {
  /// The notification title.
  public let title: String
  /// The notification body.
  public let body: String
  /// `true` when this is the generic fallback shown for any failure.
  public let isFallback: Bool

  /// The sound to play: always `default` (Protocol/Push.md §6).
  public var sound: String { "default" }
}

/// Turns a validated push content, or a failure, into the notification text of Protocol/Push.md §6.
///
/// Decision order: failure → the generic fallback; an `alert` → alert triggered/recovered with
/// `rule on server`; a `task_run` → success text when all counts are zero, else failure counts;
/// kind `security` → the text for its event type; otherwise the test text. The texts are exactly
/// the ServerBee extension's English and Simplified Chinese strings. A rendered notification
/// carries no navigation target: taps re-open the envelope (``PushEnvelopeOpener/tapTarget(for:with:)``).
///
/// ```swift
/// let renderer = PushNotificationRenderer(language: .simplifiedChinese)
/// let shown = renderer.render(Result { try opener.open(envelope, with: key, for: .delivery) })
/// content.title = shown.title
/// content.body = shown.body
/// ```
public struct PushNotificationRenderer: Hashable, Sendable {
  /// The language of the texts.
  public let language: PushNotificationLanguage

  /// Creates a renderer.
  /// - Parameter language: The language of the texts.
  public init(language: PushNotificationLanguage) {
    self.language = language
  }

  /// The generic text shown whenever decryption or validation fails, or no key exists.
  public var fallback: RenderedPushNotification {
    text(
      "ServerBee", "Open ServerBee to view this notification.",
      "ServerBee", "打开 ServerBee 查看此通知。", isFallback: true)
  }

  /// Renders the outcome of opening an envelope; any failure gives ``fallback``.
  /// - Parameter result: The validated content, or the error that rejected it.
  /// - Returns: The text to show.
  public func render(_ result: Result<ValidatedPushContent, some Error>) -> RenderedPushNotification
  {
    switch result {
    case .success(let content): return render(content)
    case .failure: return fallback
    }
  }

  /// Renders a validated content.
  /// - Parameter validated: The content.
  /// - Returns: The text to show.
  public func render(_ validated: ValidatedPushContent) -> RenderedPushNotification {
    let content = validated.content
    if let alert = content.alert {
      let bodyEnglish = alert.ruleName + " on " + alert.serverName
      let bodyChinese = alert.ruleName + "（" + alert.serverName + "）"
      if alert.status == .resolved {
        return text("Alert recovered", bodyEnglish, "告警已恢复", bodyChinese)
      }
      return text("Alert triggered", bodyEnglish, "告警已触发", bodyChinese)
    }
    if let run = content.taskRun {
      if run.isAllSucceeded {
        return text(
          "Task run succeeded", "All \(run.total) targets succeeded.",
          "任务运行成功", "全部 \(run.total) 个目标运行成功。")
      }
      return text(
        "Task run failed",
        "Targets: \(run.total). Failed: \(run.failed). Timed out: \(run.timedOut). "
          + "Offline: \(run.offline). Denied: \(run.denied).",
        "任务运行失败",
        "目标：\(run.total)。失败：\(run.failed)。超时：\(run.timedOut)。"
          + "离线：\(run.offline)。拒绝执行：\(run.denied)。")
    }
    if content.kind == .security {
      switch content.securityEventType {
      case .sshLogin?:
        return security(
          "An SSH login from a new IP matched a security rule.", "来自新 IP 的 SSH 登录匹配了安全规则。")
      case .sshBruteForce?:
        return security(
          "SSH brute-force activity matched a security rule.", "SSH 暴力破解活动匹配了安全规则。")
      default:
        return security(
          "Port-scan activity matched a security rule.", "端口扫描活动匹配了安全规则。")
      }
    }
    return text(
      "Test notification", "Your encrypted ServerBee notification is ready.",
      "测试通知", "你的 ServerBee 加密通知已就绪。")
  }

  private func security(_ english: String, _ chinese: String) -> RenderedPushNotification {
    text("Security rule matched", english, "安全规则已匹配", chinese)
  }

  private func text(
    _ titleEnglish: String, _ bodyEnglish: String, _ titleChinese: String,
    _ bodyChinese: String, isFallback: Bool = false
  ) -> RenderedPushNotification {
    switch language {
    case .english:
      return RenderedPushNotification(
        title: titleEnglish, body: bodyEnglish, isFallback: isFallback)
    case .simplifiedChinese:
      return RenderedPushNotification(
        title: titleChinese, body: bodyChinese, isFallback: isFallback)
    }
  }
}
