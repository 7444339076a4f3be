/// What the push relay and Apple can and cannot see: the notice a user reads before turning
/// notifications on for the first time, in English and Simplified Chinese
/// (`Protocol/Push.md` and `Protocol/Relay.md` give the facts behind each line).
///
/// Show it before the first ``NotificationPreferencesClient/enable(_:)``, record that it was
/// read with ``PushPrivacyNoticeRecord``, and show it again when ``version`` grows:
///
/// ```swift
/// let record = PushPrivacyNoticeRecord(store: store)
/// if try await !record.isAcknowledged() {
///   guard await askUser(PushPrivacyNotice.current.text(in: .english)) else { return }
///   try await record.acknowledge()
/// }
/// try await preferences.enable()
/// ```
public struct PushPrivacyNotice: Sendable, Hashable {
  /// Grows whenever the text changes in substance; an acknowledgment of an older version
  /// does not count.
  public let version: Int
  /// The points, in English.
  public let english: [String]
  /// The points, in Simplified Chinese.
  public let simplifiedChinese: [String]

  /// The notice as this version of the SDK words it.
  public static let current = PushPrivacyNotice(
    version: 1,
    english: [
      "Your ServerBee server decides who receives a notification: it checks the account, the "
        + "session and this installation's registration before every send.",
      "The server encrypts each notification for this device before it leaves. A public relay "
        + "forwards the ciphertext to Apple's push service (APNs), and this device decrypts it.",
      "The relay can see the APNs device token, the source IP address, times, request sizes, "
        + "the APNs environment, event and delivery metadata, and the encrypted content. It "
        + "never receives the content key or the plain text.",
      "Apple sees the device token, the timing and the encrypted content, not the plain text.",
      "The relay is public: anyone who learns a valid device token could send unwanted or "
        + "replayed pushes; one that cannot be decrypted shows only a generic line.",
      "Turning notifications off, signing out or revoking this device stops further sends. A "
        + "notification already sent or accepted by APNs cannot be recalled.",
    ],
    simplifiedChinese: [
      "ServerBee Server 决定通知的接收者：每次发送前都会检查账户、会话和本安装的注册。",
      "Server 在发出前为本设备加密每条通知。公开 Relay 将密文转发给 Apple 推送服务（APNs），由本设备解密。",
      "Relay 可见 APNs 令牌、来源 IP、时间、请求大小、环境、事件/投递元数据及加密内容，不会收到内容密钥或明文通知。",
      "Apple 可见设备令牌、时间和加密内容，看不到明文。",
      "Relay 是公开的：知道有效设备令牌的人可能发送垃圾或重放通知；无法解密的通知只显示通用文字。",
      "关闭通知、退出登录或撤销本设备会阻止后续发送。已发送或已被 APNs 接受的通知无法撤回。",
    ])

  /// The notice's languages.
  public enum Language: Sendable, Hashable, CaseIterable {
    /// English.
    case english
    /// Simplified Chinese.
    case simplifiedChinese
  }

  /// The points in one language.
  /// - Parameter language: The language.
  /// - Returns: The points, in order.
  public func points(in language: Language) -> [String] {
    language == .english ? english : simplifiedChinese
  }

  /// The notice as one text: a heading, then one paragraph per point.
  /// - Parameter language: The language.
  /// - Returns: The text.
  public func text(in language: Language) -> String {
    let heading =
      language == .english
      ? "Before you turn on notifications: what the relay and Apple can see"
      : "开启通知前：Relay 和 Apple 能看到什么"
    return ([heading] + points(in: language).map { "- " + $0 }).joined(separator: "\n")
  }
}
