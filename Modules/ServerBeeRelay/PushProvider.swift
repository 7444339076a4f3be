public import ServerBeeModels

/// Delivers one push for the relay: APNs in production, ``ScriptedPushProvider`` in tests and
/// ``LocalDevicePushProvider`` for devices on this machine.
///
/// ```swift
/// struct AlwaysAccepting: PushProvider {
///   func deliver(_ delivery: RelayDelivery) async -> ProviderAnswer { .accepted }
/// }
/// let relay = RelayServer(provider: AlwaysAccepting())
/// ```
///
/// The relay bounds every call with ``RelayServer/Configuration/providerTimeout`` (an answer that
/// comes too late becomes `retryable`/`NetworkUnavailable`) and cancels the call then, so a
/// provider should honour cancellation.
public protocol PushProvider: Sendable {
  /// Delivers one push and reports the provider's answer.
  /// - Parameter delivery: The payload, headers and request.
  /// - Returns: What the provider (APNs) answered.
  func deliver(_ delivery: RelayDelivery) async -> ProviderAnswer
}

/// What a push provider (APNs) answered, before the relay maps it to a `RelayVerdict`
/// (Protocol/Relay.md table; see ``verdict``).
///
/// ```swift
/// ProviderAnswer.unregistered.verdict  // permanent / Unregistered, device_invalid: true
/// ```
public enum ProviderAnswer: Hashable, Sendable {
  /// APNs 200: accepted.
  case accepted
  /// APNs 410 with reason `Unregistered`: the token is gone.
  case unregistered
  /// APNs 400 with reason `BadDeviceToken`: wrong token or environment.
  case badDeviceToken
  /// Any other APNs status (a 4xx, a redirect, or a 410 with another reason) and its reason.
  case rejected(status: Int, reason: String)
  /// APNs 429 `TooManyRequests`.
  case rateLimited
  /// An APNs 5xx status.
  case serverError(status: Int)
  /// The provider could not be reached (connection, TLS, reset).
  case networkFailure
  /// The provider's reply could not be read, was contradictory or oversized.
  case malformedReply

  /// The relay verdict for this answer (Protocol/Relay.md):
  /// accepted → `accepted`/`Accepted`; unregistered → `permanent`/`Unregistered` with
  /// `device_invalid: true` (the only such case); bad device token →
  /// `permanent`/`DeviceOrEnvironmentMismatch`; other 3xx/4xx → `permanent`/
  /// `ProviderConfigurationOrPayload`; 429 and 5xx → `retryable`/`ProviderUnavailable`; network
  /// failure, malformed reply and impossible statuses → `retryable`/`NetworkUnavailable`.
  public var verdict: RelayVerdict {
    switch self {
    case .accepted:
      return RelayVerdict(outcome: .accepted, reason: .accepted)
    case .unregistered:
      return RelayVerdict(outcome: .permanent, reason: .unregistered, deviceInvalid: true)
    case .badDeviceToken:
      return RelayVerdict(outcome: .permanent, reason: .deviceOrEnvironmentMismatch)
    case .rejected(let status, let reason):
      if status == 410, reason == "Unregistered" { return ProviderAnswer.unregistered.verdict }
      if reason == "BadDeviceToken", (400..<500).contains(status) {
        return ProviderAnswer.badDeviceToken.verdict
      }
      if status == 429 || (500..<600).contains(status) {
        return RelayVerdict(outcome: .retryable, reason: .providerUnavailable)
      }
      if (300..<500).contains(status) {
        return RelayVerdict(outcome: .permanent, reason: .providerConfigurationOrPayload)
      }
      return RelayVerdict(outcome: .retryable, reason: .networkUnavailable)
    case .rateLimited:
      return RelayVerdict(outcome: .retryable, reason: .providerUnavailable)
    case .serverError(let status):
      guard (500..<600).contains(status) else {
        return RelayVerdict(outcome: .retryable, reason: .networkUnavailable)
      }
      return RelayVerdict(outcome: .retryable, reason: .providerUnavailable)
    case .networkFailure, .malformedReply:
      return RelayVerdict(outcome: .retryable, reason: .networkUnavailable)
    }
  }
}
