public import ServerBeeModels

/// The status line a settings page shows for a test push's outcome (Protocol/Push.md §2.6), in
/// English or Simplified Chinese. "Accepted" always means the provider accepted it, never that
/// the device showed it.
///
/// ```swift
/// label.text = TestPushStatusText.line(for: status.outcome, language: .simplifiedChinese)
/// ```
public enum TestPushStatusText {
  /// The languages of the status lines.
  public enum Language: Sendable, Hashable, CaseIterable {
    /// English (the iOS app's lines, verbatim).
    case english
    /// Simplified Chinese.
    case simplifiedChinese
  }

  /// The status line for an outcome; unknown outcomes read as stopped.
  /// - Parameters:
  ///   - outcome: The test's outcome.
  ///   - language: The language.
  /// - Returns: The line.
  public static func line(for outcome: PushOutcome, language: Language) -> String {
    switch (outcome, language) {
    case (.accepted, .english):
      return "APNs accepted the notification. Device presentation has not been observed."
    case (.pending, .english):
      return "Encrypted test queued on the Server. Provider acceptance is pending."
    case (.retryable, .english):
      return
        "Delivery will retry for up to 30 minutes from creation. Provider acceptance is unconfirmed."
    case (.expired, .english):
      return "The test expired after 30 minutes. Send a new test to try again."
    case (_, .english):
      return "Delivery stopped. Retry notification setup before sending a new test."
    case (.accepted, .simplifiedChinese):
      return "APNs 已接受该通知。尚未观察到设备展示。"
    case (.pending, .simplifiedChinese):
      return "加密测试已在 Server 排队。正在等待提供商接受。"
    case (.retryable, .simplifiedChinese):
      return "将在创建后 30 分钟内重试投递。尚未确认提供商接受。"
    case (.expired, .simplifiedChinese):
      return "测试已在 30 分钟后过期。请发送新的测试重试。"
    case (_, .simplifiedChinese):
      return "投递已停止。请先重试通知设置，再发送新的测试。"
    }
  }
}
