/// One page of `GET /api/audit-logs` (Protocol/Administration.md §2.1): entries newest first, and
/// the number of entries that match the filter.
///
/// Page with offsets while `entries.count` summed over pages is below ``total``; the server caps
/// a page at 200 entries.
///
/// ```swift
/// var offset = 0
/// repeat {
///   let page = try await api.auditLog(limit: 200, offset: offset)
///   entries += page.entries
///   offset += page.entries.count
/// } while !page.entries.isEmpty && offset < page.total
/// ```
public struct AuditLogPage: Codable, Hashable, Sendable {
  /// The entries, newest first.
  public var entries: [AuditLogEntry]
  /// How many entries match the filter in all.
  public var total: Int

  /// Creates a page.
  /// - Parameters:
  ///   - entries: Entries.
  ///   - total: Matching entries in all.
  public init(entries: [AuditLogEntry], total: Int) {
    self.entries = entries
    self.total = total
  }
}

/// One audit-log entry: who did what, from where, when.
public struct AuditLogEntry: Codable, Hashable, Sendable, Identifiable {
  /// Entry id.
  public var id: Int64
  /// The acting user's id (or a label such as `system`).
  public var userID: String
  /// The action, for example `user.create` or `change_password`.
  public var action: String
  /// Free text or a JSON string; `nil` when the action has none.
  public var detail: String?
  /// The caller's IP address.
  public var ip: String
  /// When (`+00:00` form).
  public var createdAt: RFC3339Timestamp

  /// Creates an entry.
  /// - Parameters:
  ///   - id: Entry id.
  ///   - userID: Acting user.
  ///   - action: Action.
  ///   - detail: Detail text.
  ///   - ip: Caller IP.
  ///   - createdAt: Time.
  public init(
    id: Int64, userID: String, action: String, detail: String?, ip: String,
    createdAt: RFC3339Timestamp
  ) {
    self.id = id
    self.userID = userID
    self.action = action
    self.detail = detail
    self.ip = ip
    self.createdAt = createdAt
  }

  private enum CodingKeys: String, CodingKey {
    case id
    case userID = "user_id"
    case action, detail, ip
    case createdAt = "created_at"
  }
}

/// `GET /api/audit-logs/options` (Protocol/Administration.md §2.2): the values the filters can
/// take.
public struct AuditLogOptions: Codable, Hashable, Sendable {
  /// One user that appears in the log.
  public struct User: Codable, Hashable, Sendable, Identifiable {
    /// The `user_id` as logged.
    public var id: String
    /// The username, or the raw id when no user matches (for example `system`).
    public var label: String

    /// Creates the value.
    /// - Parameters:
    ///   - id: Logged user id.
    ///   - label: Display label.
    public init(id: String, label: String) {
      self.id = id
      self.label = label
    }
  }

  /// Distinct actions, sorted ascending.
  public var actions: [String]
  /// Distinct users.
  public var users: [User]

  /// Creates the value.
  /// - Parameters:
  ///   - actions: Distinct actions.
  ///   - users: Distinct users.
  public init(actions: [String], users: [User]) {
    self.actions = actions
    self.users = users
  }
}
