import ServerBeeModels

/// Field access on a request object with serde's semantics: a required key that is missing or
/// of the wrong type is a framework 422 with a plain-text body.
struct JSONBody {
  let value: JSONValue

  func string(_ key: String) throws -> String {
    guard let field = value[key] else { throw missing(key) }
    guard case .string(let text) = field else { throw wrongType(key) }
    return text
  }

  func optionalString(_ key: String) throws -> String? {
    guard let field = value[key] else { return nil }
    switch field {
    case .null: return nil
    case .string(let text): return text
    default: throw wrongType(key)
    }
  }

  func has(_ key: String) -> Bool {
    if let field = value[key], field != .null { return true }
    return false
  }

  func int(_ key: String) throws -> Int64? {
    guard let field = value[key] else { return nil }
    switch field {
    case .null: return nil
    case .number(let number) where number == number.rounded(): return Int64(number)
    default: throw wrongType(key)
    }
  }

  func double(_ key: String) throws -> Double? {
    guard let field = value[key] else { return nil }
    switch field {
    case .null: return nil
    case .number(let number): return number
    default: throw wrongType(key)
    }
  }

  func bool(_ key: String) throws -> Bool? {
    guard let field = value[key] else { return nil }
    switch field {
    case .null: return nil
    case .bool(let flag): return flag
    default: throw wrongType(key)
    }
  }

  func strings(_ key: String) throws -> [String]? {
    guard let field = value[key] else { return nil }
    switch field {
    case .null: return nil
    case .array(let items):
      return try items.map {
        guard case .string(let text) = $0 else { throw wrongType(key) }
        return text
      }
    default: throw wrongType(key)
    }
  }

  /// serde's `deny_unknown_fields` with every key required (Protocol/Push.md §2.1): an unknown key,
  /// then a missing one, is a framework 422 with a plain-text body. `path` prefixes nested objects.
  func requireExactly(_ keys: [String], path: String = "") throws {
    guard case .object(let members) = value else {
      throw APIError.plain(
        422, "Failed to deserialize the JSON body into the target type: \(path)invalid type")
    }
    for member in members where !keys.contains(member.key) {
      let expected =
        keys.count == 2
        ? "`\(keys[0])` or `\(keys[1])`"
        : "one of " + keys.map { "`\($0)`" }.joined(separator: ", ")
      throw APIError.plain(
        422,
        "Failed to deserialize the JSON body into the target type: \(path)unknown field "
          + "`\(member.key)`, expected \(expected)")
    }
    for key in keys where value[key] == nil { throw missing(path + key) }
  }

  /// A required nested object whose keys are exactly `keys`.
  func object(_ key: String, exactly keys: [String]) throws -> JSONBody {
    guard let field = value[key] else { throw missing(key) }
    guard case .object = field else { throw wrongType(key) }
    let nested = JSONBody(value: field)
    try nested.requireExactly(keys, path: key + ".")
    return nested
  }

  /// A required boolean (no null).
  func requiredBool(_ key: String) throws -> Bool {
    guard let field = value[key] else { throw missing(key) }
    guard case .bool(let flag) = field else { throw wrongType(key) }
    return flag
  }

  /// A required integer that fits an i64 (no null, no fraction).
  func requiredInt(_ key: String) throws -> Int64 {
    guard let field = value[key] else { throw missing(key) }
    guard case .number(let number) = field, number == number.rounded(),
      abs(number) < 9.2e18
    else { throw wrongType(key) }
    return Int64(number)
  }

  /// A required array of strings (no null).
  func requiredStrings(_ key: String) throws -> [String] {
    guard let field = value[key] else { throw missing(key) }
    guard let items = try strings(key), field != .null else { throw wrongType(key) }
    return items
  }

  private func missing(_ key: String) -> APIError {
    .plain(422, "Failed to deserialize the JSON body into the target type: missing field `\(key)`")
  }

  private func wrongType(_ key: String) -> APIError {
    .plain(422, "Failed to deserialize the JSON body into the target type: \(key): invalid type")
  }
}
