/// A notification channel (Protocol/Alerts.md §7): where alerts are delivered. Admin only.
///
/// ``configJSON`` is JSON **text** that holds the channel's secrets (bot tokens, device keys,
/// an APNs private key): printing a channel never shows it (`SecretBearing`), and a command
/// line should not either. Channel types a newer server adds still decode
/// (``NotificationChannelType`` is open).
///
/// ```swift
/// let channels = try await api.notificationChannels()
/// for channel in channels where !channel.enabled {
///   _ = try await api.setNotificationChannel(id: channel.id, enabled: true)
/// }
/// try await api.testNotificationChannel(id: channels[0].id)
/// ```
public struct NotificationChannel: Codable, Hashable, Sendable, Identifiable, SecretBearing {
  /// Channel id.
  public var id: String
  /// Display name.
  public var name: String
  /// The delivery kind.
  public var notifyType: NotificationChannelType
  /// The channel's configuration as JSON text. Holds secrets.
  public var configJSON: String
  /// Whether alerts are sent through it.
  public var enabled: Bool
  /// Creation time (`Z` form).
  public var createdAt: RFC3339Timestamp

  /// Creates a channel.
  /// - Parameters:
  ///   - id: Channel id.
  ///   - name: Name.
  ///   - notifyType: Kind.
  ///   - configJSON: Configuration text.
  ///   - enabled: Whether enabled.
  ///   - createdAt: Creation time.
  public init(
    id: String, name: String, notifyType: NotificationChannelType, configJSON: String,
    enabled: Bool, createdAt: RFC3339Timestamp
  ) {
    self.id = id
    self.name = name
    self.notifyType = notifyType
    self.configJSON = configJSON
    self.enabled = enabled
    self.createdAt = createdAt
  }

  /// `NotificationChannel(name: NAME, type: TYPE, enabled: BOOL, config redacted)`.
  public var redactedSummary: String {
    "NotificationChannel(name: \(name), type: \(notifyType.rawValue), enabled: \(enabled), "
      + "config redacted)"
  }

  private enum CodingKeys: String, CodingKey {
    case id, name
    case notifyType = "notify_type"
    case configJSON = "config_json"
    case enabled
    case createdAt = "created_at"
  }
}

/// A notification channel's kind; unknown kinds survive decoding.
public struct NotificationChannelType: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a kind from its wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// An HTTP webhook.
  public static let webhook: Self = "webhook"
  /// A Telegram bot.
  public static let telegram: Self = "telegram"
  /// Bark (iOS push service).
  public static let bark: Self = "bark"
  /// E-mail (through Resend).
  public static let email: Self = "email"
  /// The server's own APNs delivery.
  public static let apns: Self = "apns"
}

/// `PUT /api/notifications/{id}` body as the app sends it: only `enabled`.
public struct NotificationChannelToggle: Codable, Hashable, Sendable {
  /// Whether alerts are sent through the channel.
  public var enabled: Bool

  /// Creates the body.
  /// - Parameter enabled: Whether enabled.
  public init(enabled: Bool) { self.enabled = enabled }
}
