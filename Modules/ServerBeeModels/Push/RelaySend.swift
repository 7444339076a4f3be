/// The body of the relay's `POST /v1/send` (Protocol/Relay.md), sent by a server, never by a
/// device.
///
/// Exactly these keys, in order: `device_token`, `environment`, `event_id`, `expires_at`,
/// `envelope`. Included so that servers and the simulator can speak to a relay.
public struct RelaySendRequest: Codable, Hashable, Sendable {
  /// The APNs device token, lowercase hex.
  public var deviceToken: String
  /// The APNs environment.
  public var environment: PushEnvironment
  /// The event id (becomes `apns-id`).
  public var eventID: String
  /// The content's expiry, Unix seconds.
  public var expiresAt: Int64
  /// The sealed envelope.
  public var envelope: PushEnvelope

  /// Creates a relay request.
  /// - Parameters:
  ///   - deviceToken: The APNs token.
  ///   - environment: The APNs environment.
  ///   - eventID: The event id.
  ///   - expiresAt: The expiry, Unix seconds.
  ///   - envelope: The envelope.
  public init(
    deviceToken: String, environment: PushEnvironment, eventID: String, expiresAt: Int64,
    envelope: PushEnvelope
  ) {
    self.deviceToken = deviceToken
    self.environment = environment
    self.eventID = eventID
    self.expiresAt = expiresAt
    self.envelope = envelope
  }

  enum CodingKeys: String, CodingKey {
    case deviceToken = "device_token"
    case environment
    case eventID = "event_id"
    case expiresAt = "expires_at"
    case envelope
  }
}

/// The relay's answer to `POST /v1/send` (Protocol/Relay.md):
/// `{"outcome","reason","device_invalid"}`.
public struct RelayVerdict: Codable, Hashable, Sendable {
  /// The outcome.
  public var outcome: PushOutcome
  /// The display-only reason.
  public var reason: PushDeliveryReason
  /// `true` only for APNs 410 `Unregistered`: the device token must be cleared.
  public var deviceInvalid: Bool

  /// Creates a verdict.
  /// - Parameters:
  ///   - outcome: The outcome.
  ///   - reason: The reason.
  ///   - deviceInvalid: Whether the token is gone.
  public init(outcome: PushOutcome, reason: PushDeliveryReason, deviceInvalid: Bool = false) {
    self.outcome = outcome
    self.reason = reason
    self.deviceInvalid = deviceInvalid
  }

  enum CodingKeys: String, CodingKey {
    case outcome, reason
    case deviceInvalid = "device_invalid"
  }
}
