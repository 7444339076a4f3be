/// Where a push delivery stands (Protocol/Push.md §2.6, Protocol/Relay.md): the `outcome` of a test
/// status or relay verdict.
///
/// Switch on this value, not on the reason. Unknown values decode unchanged.
///
/// ```swift
/// switch status.outcome {
/// case .pending, .retryable: keepPolling()
/// case .accepted: showAccepted()
/// default: showStopped()
/// }
/// ```
public struct PushOutcome: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a value from its wire text.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Queued on the server, not yet answered by the relay.
  public static let pending: Self = "pending"
  /// Not confirmed; another attempt is scheduled.
  public static let retryable: Self = "retryable"
  /// APNs gave a provider receipt (not proof of display).
  public static let accepted: Self = "accepted"
  /// Delivery stopped: rejected, ineligible or misconfigured.
  public static let permanent: Self = "permanent"
  /// The 30-minute lifetime passed.
  public static let expired: Self = "expired"

  /// Whether the delivery is still in progress (``pending`` or ``retryable``).
  public var isInProgress: Bool { self == .pending || self == .retryable }
}

/// The display-only `reason` next to a ``PushOutcome`` (Protocol/Push.md §2.6, Protocol/Relay.md).
///
/// Servers and relays keep adding reasons; treat this as text to show or log, and decide with the
/// outcome. The constants are the reasons seen so far.
public struct PushDeliveryReason: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a value from its wire text.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// `Queued`: admitted, waiting for the relay.
  public static let queued: Self = "Queued"
  /// `Accepted`: APNs accepted the notification.
  public static let accepted: Self = "Accepted"
  /// `Expired`: the deadline passed before delivery.
  public static let expired: Self = "Expired"
  /// `Ineligible`: the registration, login or role no longer allows the push.
  public static let ineligible: Self = "Ineligible"
  /// `Unregistered`: APNs 410, the device token is gone.
  public static let unregistered: Self = "Unregistered"
  /// `ProviderUnavailable`: APNs 429 or 5xx.
  public static let providerUnavailable: Self = "ProviderUnavailable"
  /// `NetworkUnavailable`: the relay could not reach APNs.
  public static let networkUnavailable: Self = "NetworkUnavailable"
  /// `RequestTimeout`: the relay timed out.
  public static let requestTimeout: Self = "RequestTimeout"
  /// `DeviceOrEnvironmentMismatch`: APNs `BadDeviceToken`.
  public static let deviceOrEnvironmentMismatch: Self = "DeviceOrEnvironmentMismatch"
  /// `ProviderConfigurationOrPayload`: another APNs 4xx.
  public static let providerConfigurationOrPayload: Self = "ProviderConfigurationOrPayload"
  /// `PayloadTooLarge`: the APNs payload exceeds 4096 bytes.
  public static let payloadTooLarge: Self = "PayloadTooLarge"
  /// `RelayUnavailable`: the relay could not be reached or answered badly.
  public static let relayUnavailable: Self = "RelayUnavailable"
  /// `RelayNotConfigured`: the relay lacks its signing configuration.
  public static let relayNotConfigured: Self = "RelayNotConfigured"
  /// `RelayPayloadRejected`: the relay refused the request with a 4xx.
  public static let relayPayloadRejected: Self = "RelayPayloadRejected"
  /// `InvalidRequest`: the relay request failed its schema.
  public static let invalidRequest: Self = "InvalidRequest"
  /// `EnvironmentDisabled`: the relay does not serve this APNs environment.
  public static let environmentDisabled: Self = "EnvironmentDisabled"
  /// `RateLimited`: the relay's rate limit was hit.
  public static let rateLimited: Self = "RateLimited"
  /// `RelayBusy`: too many requests in flight at the relay.
  public static let relayBusy: Self = "RelayBusy"
}
