/// The body of `PUT /api/mobile/push/settings` (Protocol/Push.md §2.4): a compare-and-set write of
/// the switches.
///
/// The server refuses unknown keys and requires both keys; a stale `expected_revision` gives 409.
///
/// ```swift
/// let body = try WireJSON.encode(
///   PushSettingsUpdate(expectedRevision: settings.revision, preferences: wanted))
/// // {"expected_revision":2,"preferences":{"enabled":true,…}}
/// ```
public struct PushSettingsUpdate: Codable, Hashable, Sendable {
  /// The revision the client last confirmed.
  public var expectedRevision: Int64
  /// All five switches as they should be saved.
  public var preferences: PushPreferences

  /// Creates a settings write.
  /// - Parameters:
  ///   - expectedRevision: The revision the client last confirmed.
  ///   - preferences: The switches to save.
  public init(expectedRevision: Int64, preferences: PushPreferences) {
    self.expectedRevision = expectedRevision
    self.preferences = preferences
  }

  enum CodingKeys: String, CodingKey {
    case expectedRevision = "expected_revision"
    case preferences
  }
}
