import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// Editing a server and its tags (Protocol/Servers.md §4.1, §4.2).
//
// [inferred], as Protocol/Servers.md §4.1 and §4.2 record:
// - the body is checked before the server is looked up, so a bad body for an unknown server is
//   the 422, and the checks run in the order of §4.1 (price, billing_cycle,
//   traffic_limit_type, billing_start_day, country_code);
// - `country_code: null` clears the code as well as the pin and the region;
// - a `group_id` naming no group is the 500 a broken foreign key gives;
// - `updated_at` moves on every accepted edit, `{}` included;
// - a `null` for a key that cannot be cleared (`name`, `weight`, `hidden`, the remarks) leaves
//   it unchanged, as serde reads `null` into a plain optional;
// - tags are trimmed before their length and characters are checked, the message quotes the
//   trimmed tag, and length counts characters (Unicode scalars);
// - non-empty tags for an unknown server are the 500 of a broken foreign key; `[]` is fine.

/// A write the real server's foreign keys refuse: answered as its 500 `Database error`.
struct ForeignKeyViolation: Error {}

extension ServersArea {
  /// `PUT /api/servers/{id}` (admin): the keys present change, the rest stay.
  func updateServer(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let edit = try ServerEdit(body)
    let id = context.parameter(0)
    guard try core.server(id: id) != nil else { throw APIError.notFound("Server not found") }
    if case .set(let group) = edit.groupID,
      try db.query("SELECT id FROM server_groups WHERE id = ?", [.text(group)]).isEmpty
    {
      throw ForeignKeyViolation()
    }
    var assignments: [String] = []
    var values: [SQLValue] = []
    func assign(_ column: String, _ value: SQLValue) {
      assignments.append("\(column) = ?")
      values.append(value)
    }
    if let name = edit.name { assign("name", .text(name)) }
    if let weight = edit.weight { assign("weight", .int(weight)) }
    if let hidden = edit.hidden { assign("hidden", .int(hidden ? 1 : 0)) }
    if let remark = edit.remark { assign("remark", .text(remark)) }
    if let publicRemark = edit.publicRemark { assign("public_remark", .text(publicRemark)) }
    edit.groupID.apply { assign("group_id", $0.map(SQLValue.text) ?? .null) }
    switch edit.countryCode {
    case .unchanged: break
    case .set(let code):
      assign("country_code", .text(code))
      assign("geo_manual", .int(1))
    case .clear:
      assign("country_code", .null)
      assign("region", .null)
      assign("geo_manual", .int(0))
    }
    edit.price.apply { assign("price", $0.map(SQLValue.real) ?? .null) }
    edit.billingCycle.apply { assign("billing_cycle", $0.map(SQLValue.text) ?? .null) }
    edit.currency.apply { assign("currency", $0.map(SQLValue.text) ?? .null) }
    edit.expiredAt.apply { assign("expired_at", $0.map(SQLValue.int) ?? .null) }
    edit.trafficLimit.apply { assign("traffic_limit", $0.map(SQLValue.int) ?? .null) }
    edit.trafficLimitType.apply { assign("traffic_limit_type", $0.map(SQLValue.text) ?? .null) }
    edit.billingStartDay.apply { assign("billing_start_day", $0.map(SQLValue.int) ?? .null) }
    assign("updated_at", .int(now))
    try db.execute(
      "UPDATE servers SET \(assignments.joined(separator: ", ")) WHERE id = ?",
      values + [.text(id)])
    guard let row = try core.server(id: id) else { throw APIError.notFound("Server not found") }
    return Reply.data(row.response)
  }

  /// `GET /api/servers/{id}/tags` (member): sorted; `[]` for an unknown server.
  func serverTags(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let tags = try core.server(id: context.parameter(0))?.tags ?? []
    return Reply.data(tags.sorted())
  }

  /// `PUT /api/servers/{id}/tags {tags}` (admin): a full replace, answered canonically.
  func setServerTags(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let input = try context.jsonBody().strings("tags") else {
      throw APIError.plain(
        422, "Failed to deserialize the JSON body into the target type: missing field `tags`")
    }
    let tags = try Self.canonicalTags(input)
    let id = context.parameter(0)
    guard try core.server(id: id) != nil else {
      if tags.isEmpty { return Reply.data(tags) }
      throw ForeignKeyViolation()
    }
    try db.execute(
      "UPDATE servers SET tags_json = ? WHERE id = ?",
      [.text(String(decoding: try WireJSON.encode(tags), as: UTF8.self)), .text(id)])
    return Reply.data(tags)
  }

  /// The tag rules of Protocol/Servers.md §4.2: at most 8 entries as given; each trimmed,
  /// empty ones dropped, at most 16 characters of `A–Z a–z 0–9 _ - .`; deduplicated, sorted.
  /// - Throws: ``APIError/validation(_:)`` with the server's text.
  static func canonicalTags(_ input: [String]) throws -> [String] {
    guard input.count <= 8 else { throw APIError.validation("at most 8 tags") }
    var tags = Set<String>()
    for raw in input {
      let tag = raw.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !tag.isEmpty else { continue }
      guard tag.unicodeScalars.count <= 16 else {
        throw APIError.validation("tag '\(tag)' exceeds 16 chars")
      }
      guard tag.unicodeScalars.allSatisfy(isTagCharacter) else {
        throw APIError.validation("tag '\(tag)' contains invalid characters")
      }
      tags.insert(tag)
    }
    return tags.sorted()
  }

  private static func isTagCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".": return true
    default: return false
    }
  }
}

/// A key of an edit body: absent, `null`, or a value (Protocol/Servers.md §4.1).
enum KeyUpdate<Value> {
  case unchanged
  case clear
  case set(Value)

  /// Calls `assign` with `nil` to clear or the value to set; nothing when unchanged.
  func apply(_ assign: (Value?) -> Void) {
    switch self {
    case .unchanged: return
    case .clear: assign(nil)
    case .set(let value): assign(value)
    }
  }
}

/// A `PUT /api/servers/{id}` body, read and checked as Protocol/Servers.md §4.1 says.
struct ServerEdit {
  var name: String?
  var weight: Int64?
  var hidden: Bool?
  var remark: String?
  var publicRemark: String?
  var groupID: KeyUpdate<String>
  var countryCode: KeyUpdate<String>
  var price: KeyUpdate<Double>
  var billingCycle: KeyUpdate<String>
  var currency: KeyUpdate<String>
  var expiredAt: KeyUpdate<Int64>
  var trafficLimit: KeyUpdate<Int64>
  var trafficLimitType: KeyUpdate<String>
  var billingStartDay: KeyUpdate<Int64>

  /// Reads the body: a wrong type is a plain-text 422, a value out of range the handler's 422.
  init(_ body: JSONBody) throws {
    func update<T>(_ key: String, _ read: (JSONBody) throws -> T?) throws -> KeyUpdate<T> {
      guard let field = body.value[key] else { return .unchanged }
      if field == .null { return .clear }
      guard let value = try read(body) else { return .clear }
      return .set(value)
    }
    name = try body.optionalString("name")
    weight = try body.int("weight")
    hidden = try body.bool("hidden")
    remark = try body.optionalString("remark")
    publicRemark = try body.optionalString("public_remark")
    groupID = try update("group_id") { try $0.optionalString("group_id") }
    countryCode = try update("country_code") { try $0.optionalString("country_code") }
    price = try update("price") { try $0.double("price") }
    billingCycle = try update("billing_cycle") { try $0.optionalString("billing_cycle") }
    currency = try update("currency") { try $0.optionalString("currency") }
    expiredAt = try update("expired_at") { body in
      try body.optionalString("expired_at").map { text in
        guard let time = try? RFC3339Timestamp(parsing: text) else {
          throw APIError.plain(
            422,
            "Failed to deserialize the JSON body into the target type: expired_at: "
              + "input contains invalid characters")
        }
        return time.secondsSince1970 * SimulatorCore.second + Int64(time.nanoseconds)
      }
    }
    trafficLimit = try update("traffic_limit") { try $0.int("traffic_limit") }
    trafficLimitType = try update("traffic_limit_type") {
      try $0.optionalString("traffic_limit_type")
    }
    billingStartDay = try update("billing_start_day") { try $0.int("billing_start_day") }
    try check()
  }

  /// The handler's checks, in the order of Protocol/Servers.md §4.1; upper-cases the country.
  private mutating func check() throws {
    if case .set(let price) = price, !(price.isFinite && price >= 0) {
      throw APIError.validation("price must be finite and greater than or equal to 0")
    }
    if case .set(let cycle) = billingCycle, !["monthly", "quarterly", "yearly"].contains(cycle) {
      throw APIError.validation("billing_cycle must be monthly, quarterly, or yearly")
    }
    if case .set(let type) = trafficLimitType, !["sum", "up", "down"].contains(type) {
      throw APIError.validation("traffic_limit_type must be sum, up, or down")
    }
    if case .set(let day) = billingStartDay, !(1...28).contains(day) {
      throw APIError.validation("billing_start_day must be between 1 and 28")
    }
    if case .set(let code) = countryCode {
      guard code.unicodeScalars.count == 2,
        code.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) })
      else {
        throw APIError.validation("country_code must be a 2-letter ISO 3166-1 alpha-2 code")
      }
      countryCode = .set(code.uppercased())
    }
  }
}
