/// `PUT /api/servers/{id}` body (admin): the fields to change, every one optional
/// (Protocol/Servers.md §4.1).
///
/// A field left `nil` or ``FieldUpdate/unchanged`` is left out of the body and keeps its value.
/// The nullable fields are ``FieldUpdate``s, because for them an absent key, `null` and a value
/// are three different things. ``remark`` and ``publicRemark`` can be set but not cleared (send
/// `""` to blank them). Setting ``countryCode`` pins the flag (`geo_manual` becomes true);
/// clearing it removes the pin and wipes `region`. Capabilities cannot be written here.
///
/// ```swift
/// var edit = ServerUpdateRequest(name: "web-fra-2")
/// edit.price = .set(4.5)
/// edit.groupID = .clear
/// let server = try await api.updateServer(id: server.id, edit)
/// ```
public struct ServerUpdateRequest: Encodable, Hashable, Sendable {
  /// The new name (the server does not check it for emptiness), or `nil` to keep it.
  public var name: String?
  /// The new sort key (descending), or `nil` to keep it.
  public var weight: Int?
  /// Whether the server is hidden from public pages, or `nil` to keep it.
  public var hidden: Bool?
  /// The new private remark (`""` blanks it), or `nil` to keep it.
  public var remark: String?
  /// The new public remark (`""` blanks it), or `nil` to keep it.
  public var publicRemark: String?
  /// The server's group; ``FieldUpdate/clear`` takes it out of any group.
  public var groupID: FieldUpdate<String>
  /// Two ASCII letters (stored upper-case) that pin the flag; ``FieldUpdate/clear`` removes the
  /// pin and wipes the region.
  public var countryCode: FieldUpdate<String>
  /// The price: finite and at least 0.
  public var price: FieldUpdate<Double>
  /// `monthly`, `quarterly` or `yearly`.
  public var billingCycle: FieldUpdate<String>
  /// Currency text.
  public var currency: FieldUpdate<String>
  /// When the server's plan expires.
  public var expiredAt: FieldUpdate<RFC3339Timestamp>
  /// Traffic allowance, bytes.
  public var trafficLimit: FieldUpdate<Int64>
  /// What the traffic allowance counts: `sum`, `up` or `down`.
  public var trafficLimitType: FieldUpdate<String>
  /// The day of the month billing starts, 1–28.
  public var billingStartDay: FieldUpdate<Int>

  /// Creates a body; every field left out keeps its value.
  ///
  /// ```swift
  /// let rename = ServerUpdateRequest(name: "db-1")
  /// ```
  /// - Parameters:
  ///   - name: New name.
  ///   - weight: New sort key.
  ///   - hidden: Whether it is hidden.
  ///   - remark: New private remark.
  ///   - publicRemark: New public remark.
  ///   - groupID: The group.
  ///   - countryCode: The pinned country.
  ///   - price: The price.
  ///   - billingCycle: The billing cycle.
  ///   - currency: The currency.
  ///   - expiredAt: The expiry.
  ///   - trafficLimit: The traffic allowance.
  ///   - trafficLimitType: What the allowance counts.
  ///   - billingStartDay: The billing day.
  public init(
    name: String? = nil, weight: Int? = nil, hidden: Bool? = nil, remark: String? = nil,
    publicRemark: String? = nil, groupID: FieldUpdate<String> = .unchanged,
    countryCode: FieldUpdate<String> = .unchanged, price: FieldUpdate<Double> = .unchanged,
    billingCycle: FieldUpdate<String> = .unchanged, currency: FieldUpdate<String> = .unchanged,
    expiredAt: FieldUpdate<RFC3339Timestamp> = .unchanged,
    trafficLimit: FieldUpdate<Int64> = .unchanged,
    trafficLimitType: FieldUpdate<String> = .unchanged,
    billingStartDay: FieldUpdate<Int> = .unchanged
  ) {
    self.name = name
    self.weight = weight
    self.hidden = hidden
    self.remark = remark
    self.publicRemark = publicRemark
    self.groupID = groupID
    self.countryCode = countryCode
    self.price = price
    self.billingCycle = billingCycle
    self.currency = currency
    self.expiredAt = expiredAt
    self.trafficLimit = trafficLimit
    self.trafficLimitType = trafficLimitType
    self.billingStartDay = billingStartDay
  }

  /// Whether the body changes nothing (`{}`).
  public var isEmpty: Bool {
    name == nil && weight == nil && hidden == nil && remark == nil && publicRemark == nil
      && !groupID.isWritten && !countryCode.isWritten && !price.isWritten
      && !billingCycle.isWritten && !currency.isWritten && !expiredAt.isWritten
      && !trafficLimit.isWritten && !trafficLimitType.isWritten && !billingStartDay.isWritten
  }

  /// The members that are set, in the order of Protocol/Servers.md §4.1; `null` for a
  /// ``FieldUpdate/clear``.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: AnyCodingKey.self)
    if let name { try c.encode(name, forKey: AnyCodingKey("name")) }
    if let weight { try c.encode(weight, forKey: AnyCodingKey("weight")) }
    if let hidden { try c.encode(hidden, forKey: AnyCodingKey("hidden")) }
    if let remark { try c.encode(remark, forKey: AnyCodingKey("remark")) }
    if let publicRemark { try c.encode(publicRemark, forKey: AnyCodingKey("public_remark")) }
    try c.encode(groupID, forKey: AnyCodingKey("group_id"))
    try c.encode(countryCode, forKey: AnyCodingKey("country_code"))
    try c.encode(price, forKey: AnyCodingKey("price"))
    try c.encode(billingCycle, forKey: AnyCodingKey("billing_cycle"))
    try c.encode(currency, forKey: AnyCodingKey("currency"))
    try c.encode(expiredAt, forKey: AnyCodingKey("expired_at"))
    try c.encode(trafficLimit, forKey: AnyCodingKey("traffic_limit"))
    try c.encode(trafficLimitType, forKey: AnyCodingKey("traffic_limit_type"))
    try c.encode(billingStartDay, forKey: AnyCodingKey("billing_start_day"))
  }
}

/// `PUT /api/servers/{id}/tags` body (admin): the server's whole new tag list
/// (Protocol/Servers.md §4.2).
///
/// At most 8 entries (counted before the server trims and dedupes them), each at most 16
/// characters of ASCII letters, digits, `_`, `-` and `.`. The answer is the canonical list.
///
/// ```swift
/// let tags = try await api.setServerTags(serverID: id, ["prod", "eu"])
/// ```
public struct ServerTagsRequest: Codable, Hashable, Sendable {
  /// The new tags.
  public var tags: [String]

  /// Creates the body.
  /// - Parameter tags: The new tags; `[]` removes every tag.
  public init(tags: [String]) { self.tags = tags }
}

/// `POST /api/server-groups` body (admin): a new group's name (Protocol/Servers.md §4.3).
///
/// ```swift
/// let group = try await api.createServerGroup(name: "Production")
/// ```
public struct ServerGroupCreateRequest: Codable, Hashable, Sendable {
  /// The name: not empty, not a name another group has.
  public var name: String

  /// Creates the body.
  /// - Parameter name: The group's name.
  public init(name: String) { self.name = name }
}

/// `PUT /api/server-groups/{id}` body (admin): a new name, a new weight, or both
/// (Protocol/Servers.md §4.3). Absent members are left out and keep their value.
///
/// ```swift
/// _ = try await api.updateServerGroup(id: group.id, ServerGroupUpdateRequest(weight: 10))
/// ```
public struct ServerGroupUpdateRequest: Encodable, Hashable, Sendable {
  /// The new name (not empty; another group may have it), or `nil` to keep it.
  public var name: String?
  /// The new sort key (descending), or `nil` to keep it.
  public var weight: Int?

  /// Creates the body.
  /// - Parameters:
  ///   - name: New name, or `nil`.
  ///   - weight: New weight, or `nil`.
  public init(name: String? = nil, weight: Int? = nil) {
    self.name = name
    self.weight = weight
  }

  /// `{"name"?, "weight"?}`: only the members that are set.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: AnyCodingKey.self)
    if let name { try c.encode(name, forKey: AnyCodingKey("name")) }
    if let weight { try c.encode(weight, forKey: AnyCodingKey("weight")) }
  }
}
