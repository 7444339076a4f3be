import Foundation
import ServerBeeModels

// Reading server rows by column index, the JSON columns without JSONDecoder (a
// `full_sync` that missed the cache spent most of its 255 M instructions on a dictionary per
// row and on decoding `live_json`, `features_json` and `tags_json`).

extension ServerRow {
  /// The columns ``init(_:)-(Database.Columns)`` reads, in its order.
  static let columns = """
    id, name, cpu_name, cpu_cores, cpu_arch, os, kernel_version, mem_total, swap_total, \
    disk_total, ipv4, ipv6, region, country_code, virtualization, agent_version, group_id, \
    weight, hidden, remark, public_remark, capabilities, protocol_version, features_json, \
    tags_json, online, live_json, created_at, updated_at, geo_manual, price, billing_cycle, \
    currency, expired_at, traffic_limit, traffic_limit_type, billing_start_day, agent_claimed, \
    \(openOfferColumn)
    """

  /// The server's open offer as one text column, `id code_prefix expires_at created_at` (the
  /// times in stored nanoseconds), or `NULL`: read with the row, so every writer of a list
  /// entry or a `full_sync` object takes the authority from the same `SELECT` as the rest
  /// (Protocol/Agents.md §1). One probe of `enrollment_offers_server` a row. An offer that
  /// changes touches its server's row (``SimulatorCore/touchServer(_:)``), so the objects
  /// kept from rows (``ServerFragments``) are written again.
  static let openOfferColumn = """
    (SELECT id || ' ' || code_prefix || ' ' || expires_at || ' ' || created_at \
    FROM enrollment_offers WHERE server_id = servers.id AND outcome = 'outstanding' \
    ORDER BY created_at DESC LIMIT 1)
    """

  /// Reads ``openOfferColumn``'s text; `nil` for `NULL` or any other form.
  static func openOffer(_ text: String?) -> OutstandingOffer? {
    guard let parts = text?.split(separator: " ", omittingEmptySubsequences: false),
      parts.count == 4, let expires = Int64(parts[2]), let created = Int64(parts[3])
    else { return nil }
    return OutstandingOffer(
      id: String(parts[0]), codePrefix: String(parts[1]),
      expiresAt: timestamp(expires, .utcOffset), createdAt: timestamp(created, .utcOffset))
  }

  /// Reads a row selected with ``columns``; the same values as the former `init(_: Row)` on
  /// `SELECT *`.
  init(_ row: Database.Columns) {
    id = row.text(0) ?? ""
    name = row.text(1) ?? ""
    cpuName = row.text(2)
    cpuCores = row.int(3)
    cpuArch = row.text(4)
    os = row.text(5)
    kernelVersion = row.text(6)
    memTotal = row.int(7)
    swapTotal = row.int(8)
    diskTotal = row.int(9)
    ipv4 = row.text(10)
    ipv6 = row.text(11)
    region = row.text(12)
    countryCode = row.text(13)
    virtualization = row.text(14)
    agentVersion = row.text(15)
    groupID = row.text(16)
    weight = row.int(17) ?? 0
    hidden = row.bool(18)
    remark = row.text(19)
    publicRemark = row.text(20)
    capabilities = row.int(21) ?? 1852
    protocolVersion = row.int(22) ?? 3
    features = Self.strings(row, 23)
    tags = Self.strings(row, 24)
    online = row.bool(25)
    live = row.withText(26) { LiveNumbers(plainJSON: $0) } ?? nil
    if live == nil, let text = row.text(26) { live = LiveNumbers(decoding: text) }
    createdAt = row.int(27) ?? 0
    updatedAt = row.int(28) ?? 0
    geoManual = row.bool(29)
    price = row.real(30)
    billingCycle = row.text(31)
    currency = row.text(32)
    expiredAt = row.int(33)
    trafficLimit = row.int(34)
    trafficLimitType = row.text(35)
    billingStartDay = row.int(36)
    agentClaimed = row.bool(37)
    openOffer = Self.openOffer(row.text(38))
  }

  /// A `[String]` JSON column; `[]` when it is missing or not such an array.
  static func strings(_ row: Database.Columns, _ column: Int32) -> [String] {
    if let plain = row.withText(column, { plainStringArray($0) }) ?? nil { return plain }
    return decodedStrings(row.text(column) ?? "[]")
  }

  /// The reference reading of a `[String]` column (what every row went through before).
  static func decodedStrings(_ text: String) -> [String] {
    (try? WireJSON.decode([String].self, from: Data(text.utf8))) ?? []
  }

  /// `[`, strings separated by `,`, `]` as `WireJSON.encode` writes them: no white space, no
  /// escape, no control character, valid UTF-8. Anything else is `nil`, for
  /// ``decodedStrings(_:)`` to decide; for this form both read the same strings.
  static func plainStringArray(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
    guard bytes.count >= 2, bytes[0] == UInt8(ascii: "["),
      bytes[bytes.count - 1] == UInt8(ascii: "]")
    else { return nil }
    var strings: [String] = []
    var index = 1
    let end = bytes.count - 1
    if index == end { return strings }
    while true {
      guard index < end, bytes[index] == UInt8(ascii: "\"") else { return nil }
      let start = index + 1
      index = start
      while index < end, bytes[index] != UInt8(ascii: "\"") {
        if bytes[index] == UInt8(ascii: "\\") || bytes[index] < 0x20 { return nil }
        index += 1
      }
      guard index < end,
        let string = String(
          validating: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
      else { return nil }
      strings.append(string)
      index += 1
      if index == end { return strings }
      guard bytes[index] == UInt8(ascii: ",") else { return nil }
      index += 1
    }
  }
}

extension LiveNumbers {
  /// The reference reading of `live_json` (`JSONDecoder`, what every row went through before);
  /// `nil` when it does not decode.
  init?(decoding text: String) {
    guard let value = try? JSONDecoder().decode(LiveNumbers.self, from: Data(text.utf8)) else {
      return nil
    }
    self = value
  }

  /// Reads `live_json` in the form `JSONEncoder` writes it: one flat object, no white space,
  /// every key exactly once, plain keys, JSON numbers (finite; integers for the integer fields).
  /// Anything else is `nil`, for ``init(decoding:)`` to decide; for this form both read the
  /// same values (`ServerRowColumnsTests` compares them).
  init?(plainJSON bytes: UnsafeBufferPointer<UInt8>) {
    if let canonical = Self(canonicalJSON: bytes) {
      self = canonical
      return
    }
    guard bytes.count >= 2, bytes[0] == UInt8(ascii: "{"),
      bytes[bytes.count - 1] == UInt8(ascii: "}")
    else { return nil }
    self.init()
    var seen: UInt32 = 0
    var index = 1
    let end = bytes.count - 1
    while index < end {
      guard bytes[index] == UInt8(ascii: "\"") else { return nil }
      let keyStart = index + 1
      index = keyStart
      while index < end, bytes[index] != UInt8(ascii: "\"") {
        if bytes[index] == UInt8(ascii: "\\") { return nil }
        index += 1
      }
      guard index + 1 < end, bytes[index + 1] == UInt8(ascii: ":") else { return nil }
      let key = UnsafeBufferPointer(rebasing: bytes[keyStart..<index])
      index += 2
      let numberStart = index
      while index < end, bytes[index] != UInt8(ascii: ",") { index += 1 }
      let number = UnsafeBufferPointer(rebasing: bytes[numberStart..<index])
      guard let field = Self.field(key, expected: seen.nonzeroBitCount), seen & (1 << field) == 0,
        Self.isJSONNumber(number), set(field, number)
      else { return nil }
      seen |= 1 << field
      if index < end {
        index += 1  // the comma
        guard index < end else { return nil }
      }
    }
    guard seen == (1 << Self.keys.count) - 1 else { return nil }
  }

  /// The coding keys, in declaration order (the order `JSONEncoder` writes them).
  static let keys: [String] = [
    "uptime", "cpu", "memUsed", "swapUsed", "diskUsed", "netInSpeed", "netOutSpeed",
    "netInTransfer", "netOutTransfer", "load1", "load5", "load15", "tcpConn", "udpConn",
    "processCount", "diskReadBytesPerSec", "diskWriteBytesPerSec",
  ]
  static let keyBytes: [[UInt8]] = keys.map { Array($0.utf8) }

  /// The index in ``keys`` of `key`, tried first at `expected` (the encoder's order).
  private static func field(_ key: UnsafeBufferPointer<UInt8>, expected: Int) -> Int? {
    func matches(_ index: Int) -> Bool {
      keyBytes[index].withUnsafeBufferPointer { known in
        guard known.count == key.count, let left = known.baseAddress, let right = key.baseAddress
        else { return known.count == key.count }
        return memcmp(left, right, key.count) == 0
      }
    }
    if expected < keyBytes.count, matches(expected) { return expected }
    return keyBytes.indices.first(where: matches)
  }

  /// A JSON number without fraction or exponent as an `Int64`; `nil` for any other or one out
  /// of range (`JSONDecoder` then decides).
  private static func integer(_ number: UnsafeBufferPointer<UInt8>) -> Int64? {
    var index = 0
    let negative = number.first == UInt8(ascii: "-")
    if negative { index = 1 }
    guard index < number.count else { return nil }
    var value: Int64 = 0
    while index < number.count {
      let digit = number[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      // Accumulated below zero, so Int64.min fits.
      let (next, underflow) = shifted.subtractingReportingOverflow(Int64(digit))
      guard !overflow, !underflow else { return nil }
      value = next
      index += 1
    }
    if negative { return value }
    let (positive, overflow) = (0 as Int64).subtractingReportingOverflow(value)
    return overflow ? nil : positive
  }

  /// Stores a float field (an index in ``keys``: `cpu` and the three load averages).
  mutating func setFloat(_ value: Double, field: Int) {
    switch field {
    case 1: cpu = value
    case 9: load1 = value
    case 10: load5 = value
    default: load15 = value
    }
  }

  /// Stores an integer field (an index in ``keys``: every field but the floats).
  mutating func setInteger(_ value: Int64, field: Int) {
    switch field {
    case 0: uptime = value
    case 2: memUsed = value
    case 3: swapUsed = value
    case 4: diskUsed = value
    case 5: netInSpeed = value
    case 6: netOutSpeed = value
    case 7: netInTransfer = value
    case 8: netOutTransfer = value
    case 12: tcpConn = value
    case 13: udpConn = value
    case 14: processCount = value
    case 15: diskReadBytesPerSec = value
    default: diskWriteBytesPerSec = value
    }
  }

  /// Stores field `field` (an index in ``keys``) from a JSON number; `false` when it does not fit.
  private mutating func set(_ field: Int, _ number: UnsafeBufferPointer<UInt8>) -> Bool {
    switch field {
    case 1, 9, 10, 11:
      guard let value = Double(String(decoding: number, as: UTF8.self)), value.isFinite else {
        return false
      }
      setFloat(value, field: field)
    default:
      guard let value = Self.integer(number) else { return false }
      setInteger(value, field: field)
    }
    return true
  }

  /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, the JSON number grammar.
  static func isJSONNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let count = bytes.count
    func digits() -> Int {
      let start = index
      while index < count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        index += 1
      }
      return index - start
    }
    if index < count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < count else { return false }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else if digits() == 0 {
      return false
    }
    if index < count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits() > 0 else { return false }
    }
    if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index += 1
      }
      guard digits() > 0 else { return false }
    }
    return index == count
  }
}
