public import ServerBeeModels

extension TestPushStatusText {
  /// What a test push's delivery reason means and what to check, in English or Simplified
  /// Chinese; `nil` for the reasons of a test on its way or delivered (`Queued`, `Accepted`).
  ///
  /// The status line (``line(for:language:)``) is the app's own wording; this line names the
  /// cause. A relay that refuses the server's request, for example, usually means the server's
  /// clock is ahead of the relay's: a push may expire at most 30 minutes after the relay's now
  /// (`Protocol/Relay.md §1`), and the server's outbox stores such a 4xx as
  /// `RelayPayloadRejected` (`Protocol/Push.md §5`).
  ///
  /// ```swift
  /// if let cause = TestPushStatusText.reasonLine(for: status.reason, language: .english) {
  ///   print(cause)
  /// }
  /// ```
  /// - Parameters:
  ///   - reason: The test's delivery reason.
  ///   - language: The language.
  /// - Returns: The line, or `nil` when there is nothing to explain.
  public static func reasonLine(for reason: PushDeliveryReason, language: Language) -> String? {
    guard reason != .queued, reason != .accepted else { return nil }
    let english = language == .english
    let known = english ? englishReasons[reason] : chineseReasons[reason]
    if let known { return known + " (\(reason.rawValue))" }
    return english
      ? "The server stopped the delivery (\(reason.rawValue))."
      : "Server 已停止投递（\(reason.rawValue)）。"
  }

  private static let relayRefused =
    "The relay refused the server's request. Check that the server's clock agrees with the "
    + "relay's: a push may expire at most 30 minutes after the relay's current time."
  private static let relayRefusedChinese =
    "Relay 拒绝了 Server 的请求。请检查 Server 与 Relay 的时钟是否一致：通知的过期时间最多比 Relay 的当前时间晚 30 分钟。"
  private static let retrying =
    "APNs or the relay is busy or out of reach; the server retries until 30 minutes after "
    + "the test was created."
  private static let retryingChinese = "APNs 或 Relay 繁忙或无法访问；Server 会在测试创建后 30 分钟内重试。"

  private static let englishReasons: [PushDeliveryReason: String] = [
    .relayPayloadRejected: relayRefused, .invalidRequest: relayRefused,
    .relayNotConfigured:
      "The relay has no valid APNs configuration: its operator must set its key, team and topic.",
    .relayUnavailable:
      "The server could not reach the relay: check the server's push relay URL and that the "
      + "relay is running.",
    .environmentDisabled:
      "The relay does not serve this APNs environment: compare the app's sandbox or production "
      + "environment with the relay's APNS_ENVIRONMENTS.",
    .deviceOrEnvironmentMismatch:
      "APNs refused the device token for this environment: the app's sandbox or production "
      + "environment must match how it was signed.",
    .unregistered:
      "APNs says the device token is no longer valid: turn notifications on again to register "
      + "a new one.",
    .ineligible:
      "The server no longer sends to this installation: notifications were turned off, the "
      + "session ended, or the registration changed.",
    .providerConfigurationOrPayload:
      "APNs refused the relay's request: the relay's APNs key, team or topic may be wrong.",
    .payloadTooLarge: "The notification was too large for APNs.",
    .expired: "The test was not delivered within 30 minutes of its creation.",
    .providerUnavailable: retrying, .networkUnavailable: retrying, .requestTimeout: retrying,
    .rateLimited: retrying, .relayBusy: retrying,
  ]

  private static let chineseReasons: [PushDeliveryReason: String] = [
    .relayPayloadRejected: relayRefusedChinese, .invalidRequest: relayRefusedChinese,
    .relayNotConfigured: "Relay 没有有效的 APNs 配置：需由其运维者设置密钥、团队和主题。",
    .relayUnavailable: "Server 无法连接 Relay：请检查 Server 的推送 Relay 地址以及 Relay 是否在运行。",
    .environmentDisabled:
      "Relay 不服务此 APNs 环境：请将应用的 sandbox/production 环境与 Relay 的 APNS_ENVIRONMENTS 对照。",
    .deviceOrEnvironmentMismatch: "APNs 拒绝了此环境下的设备令牌：应用的 sandbox/production 环境须与其签名一致。",
    .unregistered: "APNs 表示设备令牌已失效：请重新开启通知以注册新令牌。",
    .ineligible: "Server 不再向此安装发送：通知已关闭、会话已结束或注册已变更。",
    .providerConfigurationOrPayload: "APNs 拒绝了 Relay 的请求：Relay 的 APNs 密钥、团队或主题可能有误。",
    .payloadTooLarge: "通知超出了 APNs 的大小限制。",
    .expired: "测试未能在创建后 30 分钟内投递。",
    .providerUnavailable: retryingChinese, .networkUnavailable: retryingChinese,
    .requestTimeout: retryingChinese, .rateLimited: retryingChinese, .relayBusy: retryingChinese,
  ]
}
