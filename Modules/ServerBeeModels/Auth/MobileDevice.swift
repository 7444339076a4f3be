/// One of the caller's mobile sessions, from `GET /api/mobile/auth/devices` (Protocol/Auth.md §7.1,
/// §7).
///
/// There is no "current device" flag: compare ``installationID`` (and, on v2 servers, ``id``
/// with the stored `mobile_session_id`). On v1 servers ``id`` changes on every refresh.
public struct MobileDevice: Codable, Hashable, Sendable, Identifiable {
  /// The mobile session id (stable on v2 servers).
  public var id: String
  /// The device name given at login or pairing.
  public var deviceName: String
  /// The installation the session is bound to.
  public var installationID: String
  /// When the session (v1: the current rotation) was created, `+00:00` form.
  public var createdAt: RFC3339Timestamp
  /// When the session was last used, `+00:00` form.
  public var lastUsedAt: RFC3339Timestamp

  /// Creates a device.
  /// - Parameters:
  ///   - id: The session id.
  ///   - deviceName: The device name.
  ///   - installationID: The installation id.
  ///   - createdAt: Creation time.
  ///   - lastUsedAt: Last use.
  public init(
    id: String, deviceName: String, installationID: String, createdAt: RFC3339Timestamp,
    lastUsedAt: RFC3339Timestamp
  ) {
    self.id = id
    self.deviceName = deviceName
    self.installationID = installationID
    self.createdAt = createdAt
    self.lastUsedAt = lastUsedAt
  }

  private enum CodingKeys: String, CodingKey {
    case id
    case deviceName = "device_name"
    case installationID = "installation_id"
    case createdAt = "created_at"
    case lastUsedAt = "last_used_at"
  }
}
