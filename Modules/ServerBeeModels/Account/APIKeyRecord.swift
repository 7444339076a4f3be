/// An API key of the signed-in account (Protocol/Account.md §3).
///
/// The list (`GET /api/auth/api-keys`) holds only the caller's own keys, with ``key`` always
/// `nil`; the plaintext (`serverbee_` + 43 base64url characters) comes back **once**, from
/// `POST /api/auth/api-keys` (admin only). A key never expires, carries its creator's role and
/// is sent as the `X-API-Key` header. Printing the value shows no key (`SecretBearing`).
///
/// ```swift
/// let created = try await api.createAPIKey(name: "grafana")
/// save(created.key)                     // shown only now
/// let keys = try await api.apiKeys()    // key == nil in every row
/// ```
public struct APIKeyRecord: Codable, Hashable, Sendable, Identifiable, SecretBearing {
  /// Key id.
  public var id: String
  /// The name given at creation.
  public var name: String
  /// The first 8 characters after `serverbee_`, to recognise a key.
  public var keyPrefix: String
  /// Creation time (`+00:00` form).
  public var createdAt: RFC3339Timestamp
  /// The plaintext key: only in the answer that created it, else `nil`.
  public var key: String?

  /// Creates a record.
  /// - Parameters:
  ///   - id: Key id.
  ///   - name: Name.
  ///   - keyPrefix: First 8 characters after `serverbee_`.
  ///   - createdAt: Creation time.
  ///   - key: The plaintext, when just created.
  public init(
    id: String, name: String, keyPrefix: String, createdAt: RFC3339Timestamp, key: String? = nil
  ) {
    self.id = id
    self.name = name
    self.keyPrefix = keyPrefix
    self.createdAt = createdAt
    self.key = key
  }

  /// `APIKeyRecord(name: NAME, prefix: PREFIX, key redacted)`.
  public var redactedSummary: String {
    "APIKeyRecord(name: \(name), prefix: \(keyPrefix)\(key == nil ? "" : ", key redacted"))"
  }

  private enum CodingKeys: String, CodingKey {
    case id, name
    case keyPrefix = "key_prefix"
    case createdAt = "created_at"
    case key
  }
}

/// `POST /api/auth/api-keys` body.
public struct APIKeyCreateRequest: Codable, Hashable, Sendable {
  /// The key's name (required, non-empty).
  public var name: String

  /// Creates the body.
  /// - Parameter name: The key's name.
  public init(name: String) { self.name = name }
}
