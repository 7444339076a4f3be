#if canImport(FoundationEssentials)
  import ServerBeeCore
  import FoundationEssentials
#else
  import Foundation
#endif

/// The key that names one alert: either the opaque `v1.` key (Protocol/Alerts.md §5) or the legacy
/// `rule_id:server_id` key (v1).
///
/// A `v1.` key is `"v1."` + base64url (no padding) of the compact JSON array
/// `[rule_id, server_id, event_key, first_triggered_at]`: `event_key` is `""` for ordinary rules
/// and the source IP for security rules, `first_triggered_at` is RFC 3339 with `+00:00` (fraction
/// only when non-zero). It names the exact alert dimension and trigger cycle, so a re-armed alert
/// gets a new key. The alert detail route accepts both forms; push content accepts only `v1.`.
///
/// ```swift
/// let key = try AlertKey(
///   ruleID: "rule-1", serverID: "server-1", eventKey: "203.0.113.7",
///   firstTriggeredAt: try RFC3339Timestamp(parsing: "2033-05-18T03:33:20Z"))
/// key.text // "v1.WyJydWxlLTEiLCJzZXJ2ZXItMSIsIjIwMy4wLjExMy43IiwiMjAzMy0wNS0xOFQwMzozMzoyMCswMDowMCJd"
///
/// let parsed = try AlertKey(parsing: key.text)   // either form
/// let fromPush = try AlertKey(parsingV1: text)   // `v1.` only, as push content requires
/// ```
public struct AlertKey: Hashable, Sendable, Codable, CustomStringConvertible {
  /// Which of the two key forms a key has.
  public enum Form: Hashable, Sendable {
    /// A `v1.` key with its event key (`""` or a source IP) and first-trigger time text.
    case v1(eventKey: String, firstTriggeredAt: String)
    /// A legacy `rule_id:server_id` key.
    case legacy
  }

  /// The longest key accepted: `"v1."` plus 4096 characters.
  public static let maximumLength = 4099

  /// The key as sent on the wire and in paths (URL-safe for both forms).
  public let text: String
  /// The alert rule's id.
  public let ruleID: String
  /// The server's id.
  public let serverID: String
  /// The key form and, for `v1.` keys, the remaining parts.
  public let form: Form

  /// Builds a `v1.` key.
  /// - Parameters:
  ///   - ruleID: The rule id; not empty.
  ///   - serverID: The server id; not empty.
  ///   - eventKey: `""` for ordinary rules, the source IP for security rules.
  ///   - firstTriggeredAt: When the current trigger cycle started; written with `+00:00`.
  /// - Throws: ``ServerBeeModelsError`` with code `invalidAlertKey` when an id is empty or the
  ///   key would exceed ``maximumLength``.
  public init(
    ruleID: String, serverID: String, eventKey: String, firstTriggeredAt: RFC3339Timestamp
  ) throws {
    let time = firstTriggeredAt.formatted(.utcOffset)
    guard !ruleID.isEmpty, !serverID.isEmpty else {
      throw ServerBeeModelsError(.invalidAlertKey, "an alert key needs a rule id and a server id")
    }
    let json = try WireJSON.encode([ruleID, serverID, eventKey, time])
    let text = Self.v1Prefix + Base64URL.encode(json)
    guard text.utf8.count <= Self.maximumLength else {
      throw ServerBeeModelsError(
        .invalidAlertKey, "the alert key exceeds \(Self.maximumLength) characters")
    }
    self.text = text
    self.ruleID = ruleID
    self.serverID = serverID
    self.form = .v1(eventKey: eventKey, firstTriggeredAt: time)
  }

  /// Builds a legacy `rule_id:server_id` key.
  /// - Parameters:
  ///   - legacyRuleID: The rule id; not empty and without `:`.
  ///   - serverID: The server id; not empty.
  /// - Throws: ``ServerBeeModelsError`` with code `invalidAlertKey`.
  public init(legacyRuleID: String, serverID: String) throws {
    try self.init(parsingLegacy: legacyRuleID + ":" + serverID)
    guard self.ruleID == legacyRuleID else {
      throw ServerBeeModelsError(.invalidAlertKey, "a legacy rule id cannot contain ':'")
    }
  }

  /// Parses a key of either form: `v1.` keys are checked as by ``init(parsingV1:)``; anything
  /// else must be `rule_id:server_id` (split at the first `:`, both parts non-empty).
  /// - Parameter text: The key text.
  /// - Throws: ``ServerBeeModelsError`` with code `invalidAlertKey`.
  public init(parsing text: String) throws {
    if text.hasPrefix(Self.v1Prefix) {
      try self.init(parsingV1: text)
    } else {
      try self.init(parsingLegacy: text)
    }
  }

  /// Parses a `v1.` key with the client rules of Protocol/Alerts.md §5: the `v1.` prefix, at most
  /// ``maximumLength`` characters, a base64url payload (padding optional) that decodes to a JSON
  /// array of exactly four strings, with the rule id, server id and time non-empty.
  /// - Parameter text: The key text.
  /// - Throws: ``ServerBeeModelsError`` with code `invalidAlertKey`.
  public init(parsingV1 text: String) throws {
    guard text.hasPrefix(Self.v1Prefix) else { throw Self.invalid("it does not start with v1.") }
    guard text.utf8.count <= Self.maximumLength else {
      throw Self.invalid("it is longer than \(Self.maximumLength) characters")
    }
    guard let json = Base64URL.decode(text.dropFirst(Self.v1Prefix.count)).map({ Data($0) }) else {
      throw Self.invalid("its payload is not base64url")
    }
    guard let parts = Self.plainStringArray(json) ?? Self.decodedStringArray(json),
      parts.count == 4
    else { throw Self.invalid("its payload is not a JSON array of four strings") }
    guard !parts[0].isEmpty, !parts[1].isEmpty, !parts[3].isEmpty else {
      throw Self.invalid("its rule id, server id or trigger time is empty")
    }
    self.text = text
    self.ruleID = parts[0]
    self.serverID = parts[1]
    self.form = .v1(eventKey: parts[2], firstTriggeredAt: parts[3])
  }

  private init(parsingLegacy text: String) throws {
    guard text.utf8.count <= Self.maximumLength else {
      throw Self.invalid("it is longer than \(Self.maximumLength) characters")
    }
    guard let colon = text.firstIndex(of: ":") else {
      throw Self.invalid("it is neither a v1. key nor rule_id:server_id")
    }
    let rule = String(text[..<colon])
    let server = String(text[text.index(after: colon)...])
    guard !rule.isEmpty, !server.isEmpty else {
      throw Self.invalid("its rule id or server id is empty")
    }
    self.text = text
    self.ruleID = rule
    self.serverID = server
    self.form = .legacy
  }

  /// Whether this is a `v1.` key (the only form allowed inside push content).
  public var isV1: Bool {
    if case .v1 = form { return true }
    return false
  }

  /// The event key of a `v1.` key (`""` for ordinary rules); `nil` for a legacy key.
  public var eventKey: String? {
    if case .v1(let eventKey, _) = form { return eventKey }
    return nil
  }

  /// The first-trigger time of a `v1.` key, if it is valid RFC 3339; `nil` otherwise.
  public var firstTriggeredAt: RFC3339Timestamp? {
    guard case .v1(_, let time) = form else { return nil }
    return try? RFC3339Timestamp(parsing: time)
  }

  /// The key text.
  public var description: String { text }

  /// Decodes key text of either form.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      try self.init(parsing: text)
    } catch let error as ServerBeeModelsError {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
    }
  }

  /// Encodes the key text.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(text)
  }

  private static let v1Prefix = "v1."

  /// The payload as `JSONDecoder` reads it: the reference for ``plainStringArray(_:)``.
  static func decodedStringArray(_ json: Data) -> [String]? {
    try? JSONDecoder().decode([String].self, from: json)
  }

  /// The payload in the form the server writes it, read without `JSONDecoder` (which was about
  /// 14 k instructions of each push's alert check): `[`, strings separated by `,`, `]`, no white
  /// space, no escape, no control character, well-formed UTF-8. Anything else is `nil`, and
  /// ``decodedStringArray(_:)`` decides; for the form read here both give the same strings
  /// (`AlertKeyTests` compares them).
  static func plainStringArray(_ json: Data) -> [String]? {
    json.withUnsafeBytes { raw -> [String]? in
      let bytes = raw.bindMemory(to: UInt8.self)
      guard bytes.count >= 2, bytes[0] == UInt8(ascii: "["),
        bytes[bytes.count - 1] == UInt8(ascii: "]")
      else { return nil }
      var parts: [String] = []
      parts.reserveCapacity(4)
      var index = 1
      let end = bytes.count - 1
      if index == end { return parts }
      while true {
        guard index < end, bytes[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        let start = index
        var isASCII = true
        while index < end, bytes[index] != UInt8(ascii: "\"") {
          let byte = bytes[index]
          guard byte >= 0x20, byte != UInt8(ascii: "\\") else { return nil }
          if byte >= 0x80 { isASCII = false }
          index += 1
        }
        guard index < end else { return nil }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        let part = String(decoding: text, as: UTF8.self)
        // A repaired (ill-formed) sequence changes the bytes; JSONDecoder decides those.
        guard isASCII || part.utf8.elementsEqual(text) else { return nil }
        parts.append(part)
        index += 1
        if index == end { return parts }
        guard bytes[index] == UInt8(ascii: ",") else { return nil }
        index += 1
      }
    }
  }

  private static func invalid(_ reason: String) -> ServerBeeModelsError {
    ServerBeeModelsError(.invalidAlertKey, "not a valid alert key: \(reason)")
  }
}
