/// A server group from `GET /api/server-groups` (Protocol/Servers.md §3); turns a `group_id` into a
/// name.
public struct ServerGroup: Codable, Hashable, Sendable, Identifiable {
  /// Group id (UUID).
  public var id: String
  /// Display name.
  public var name: String
  /// Sort key.
  public var weight: Int
  /// Creation time.
  public var createdAt: RFC3339Timestamp

  /// Creates a group.
  /// - Parameters:
  ///   - id: Group id.
  ///   - name: Name.
  ///   - weight: Sort key.
  ///   - createdAt: Creation time.
  public init(id: String, name: String, weight: Int, createdAt: RFC3339Timestamp) {
    self.id = id
    self.name = name
    self.weight = weight
    self.createdAt = createdAt
  }

  private enum CodingKeys: String, CodingKey {
    case id, name, weight
    case createdAt = "created_at"
  }
}
