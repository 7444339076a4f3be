import Foundation
import ServerBeeModels

/// Writes the simulator's largest answers (`GET /api/servers`, `GET /api/servers/{id}`,
/// `full_sync`) straight into bytes, keys in the contract's order, byte-identical to
/// `WireJSON.encode` of the same values (`WireWriterTests`): `ServerResponse` (Protocol/Servers.md
/// §1) written out key by key, a `full_sync` entry (Protocol/LiveStream.md §5) field by field from
/// the `MetricField` table through ``WireField``, as the SDK's models encode it.
///
/// Why: the generic encoder builds a node tree and, for every key, searches the keys
/// already written for a duplicate; at 1,000 servers that search was 47 % of a
/// `GET /api/servers` (467 M instructions). Here each key is a constant written as is. Scalars
/// share `WireJSON`'s escaping and float formatting (the common floats through ``ShortFloat``,
/// which writes the same bytes without a `String`); nested values that the simulator never
/// varies (agent authority, grants, offers, upgrade jobs) go through `WireJSON.encode`.
///
/// The bytes live in memory the writer owns and appends to through a pointer: a
/// `full_sync` makes about 70,000 small appends, and `Array.append(contentsOf:)` cost about
/// 85 instructions each (uniqueness and capacity checks, a generic copy), 6 M of a 24 M miss.
/// Non-copyable, so that memory has one owner.
struct WireWriter: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private var count = 0

  init(capacity: Int = 1024) {
    self.capacity = max(capacity, 64)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// What was written so far.
  var bytes: [UInt8] { Array(written) }

  /// What was written so far, as `Data`.
  var data: Data { Data(written) }

  /// What was written, as `Data` that takes the writer's memory over instead of copying it
  /// (a copy of the 0.9 MB server list).
  consuming func takeData() -> Data {
    let data = Data(
      bytesNoCopy: base, count: count,
      deallocator: .custom { bytes, _ in bytes.assumingMemoryBound(to: UInt8.self).deallocate() })
    discard self
    return data
  }

  /// What was written so far, as text (it is UTF-8 JSON).
  var text: String { String(decoding: written, as: UTF8.self) }

  private var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

  /// Makes room for `extra` more bytes at `base + count`.
  @inline(__always)
  private mutating func reserve(_ extra: Int) {
    if extra > capacity - count { grow(extra) }
  }

  private mutating func grow(_ extra: Int) {
    let grown = max(capacity * 2, count + extra)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
    moved.initialize(from: base, count: count)
    base.deallocate()
    base = moved
    capacity = grown
  }

  private mutating func append(_ byte: UInt8) {
    reserve(1)
    base[count] = byte
    count += 1
  }

  private mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
    guard let start = source.baseAddress, !source.isEmpty else { return }
    reserve(source.count)
    (base + count).initialize(from: start, count: source.count)
    count += source.count
  }

  private mutating func append(_ source: [UInt8]) {
    source.withUnsafeBufferPointer { append($0) }
  }

  private mutating func append(_ source: Data) {
    source.withUnsafeBytes { append($0.assumingMemoryBound(to: UInt8.self)) }
  }

  /// Appends JSON the caller knows to be what this writer would write for it.
  mutating func verbatim(_ bytes: UnsafeBufferPointer<UInt8>) { append(bytes) }

  /// Appends a constant: punctuation and `,"key":` prefixes.
  @inline(__always)
  mutating func raw(_ text: StaticString) {
    // A direct copy, as in `key(_:)`: through `withUTF8Buffer` and a closure each constant
    // cost about 100 instructions.
    let length = text.utf8CodeUnitCount
    reserve(length)
    (base + count).initialize(from: text.utf8Start, count: length)
    count += length
  }

  /// A JSON string, as `WireJSON.appendString` writes it: text with nothing to escape is
  /// copied as is (what it does too), anything else goes through it.
  mutating func string(_ value: String) {
    var value = value
    let copied = value.withUTF8 { utf8 -> Bool in
      guard !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else {
        return false
      }
      quoted(utf8)
      return true
    }
    guard !copied else { return }
    var escaped: [UInt8] = []
    WireJSON.appendString(value, to: &escaped)
    append(escaped)
  }

  /// Appends `text` in quotes as it is: for text that needs no escape (the caller checked).
  mutating func quoted(_ text: UnsafeBufferPointer<UInt8>) {
    reserve(text.count + 2)
    append(UInt8(ascii: "\""))
    append(text)
    append(UInt8(ascii: "\""))
  }

  mutating func string(_ value: String?) {
    if let value { string(value) } else { raw("null") }
  }

  mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

  mutating func float(_ value: Double) {
    reserve(ShortFloat.longest)
    let written = ShortFloat.write(value, to: base + count)
    if written > 0 {
      count += written
    } else {
      var reference: [UInt8] = []
      WireJSON.appendFloat(value, to: &reference)
      append(reference)
    }
  }

  mutating func float(_ value: Double?) {
    if let value { float(value) } else { raw("null") }
  }

  /// Decimal digits without a `String` in between.
  mutating func int(_ value: Int64) {
    reserve(21)
    if value < 0 {
      base[count] = UInt8(ascii: "-")
      count += 1
    }
    count += ShortFloat.writeDigits(value.magnitude, to: base + count)
  }

  mutating func int(_ value: Int) { int(Int64(value)) }

  mutating func int(_ value: Int?) {
    if let value { int(Int64(value)) } else { raw("null") }
  }

  mutating func int(_ value: Int64?) {
    if let value { int(value) } else { raw("null") }
  }

  mutating func strings(_ values: [String]) {
    raw("[")
    for (index, value) in values.enumerated() {
      if index > 0 { raw(",") }
      string(value)
    }
    raw("]")
  }

  /// A nested value through the generic encoder (rare shapes; byte-identical by definition).
  mutating func encoded(_ value: some Encodable) throws {
    append(try WireJSON.encode(value))
  }

  mutating func encoded(_ value: (some Encodable)?) throws {
    if let value { try encoded(value) } else { raw("null") }
  }

  mutating func agentAuthority(_ value: AgentAuthority) throws {
    if value == .simulated, let cached = Self.simulatedAuthority {
      append(cached)
    } else if value == .unclaimed, let cached = Self.unclaimedAuthority {
      append(cached)
    } else {
      try encoded(value)
    }
  }

  /// The authority of a row from its `agent_claimed` and ``ServerRow/openOfferColumn``
  /// columns, as ``agentAuthority(_:)`` writes ``ServerRow/authority``; the open offer is read
  /// only when there is one.
  /// - Returns: The open offer, for the fields that repeat it.
  @discardableResult
  mutating func agentAuthority(_ row: Database.Columns, claimed: Int32, offer: Int32) throws
    -> OutstandingOffer?
  {
    let open = ServerRow.openOffer(row.text(offer))
    try agentAuthority(
      AgentAuthority(status: row.bool(claimed) ? .claimed : .unclaimed, outstandingOffer: open))
    return open
  }

  /// Writes `entry`'s key, `{"key":` when it opens the object, else `,"key":`.
  /// - Parameter entry: The key.
  /// - Returns: Where the key begins, for ``absent(_:keyAt:)``.
  mutating func key(_ entry: WireField) -> Int {
    let start = count
    // A direct copy: a closure over `self` here cost about 90 instructions a key.
    let key = entry.key.utf8Start
    let length = entry.key.utf8CodeUnitCount
    reserve(length + 4)
    base[count] = entry.opensObject ? UInt8(ascii: "{") : UInt8(ascii: ",")
    base[count + 1] = UInt8(ascii: "\"")
    (base + count + 2).initialize(from: key, count: length)
    base[count + length + 2] = UInt8(ascii: "\"")
    base[count + length + 3] = UInt8(ascii: ":")
    count += length + 4
    return start
  }

  /// Ends a field that has no value as the table says: `null`, or its key taken back (the
  /// key left out).
  /// - Parameters:
  ///   - entry: The field.
  ///   - start: What ``key(_:)`` returned for it.
  mutating func absent(_ entry: WireField, keyAt start: Int) {
    if entry.nullWhenNil { raw("null") } else { count = start }
  }

  /// Every simulated server has this authority: written once, copied after.
  private static let simulatedAuthority = try? Array(WireJSON.encode(AgentAuthority.simulated))
  /// An added server with no open offer has this one.
  private static let unclaimedAuthority = try? Array(WireJSON.encode(AgentAuthority.unclaimed))
}

extension WireWriter {
  /// `ServerResponse` (Protocol/Servers.md §1), in the order of its `CodingKeys`.
  mutating func write(_ server: ServerResponse) throws {
    raw("{\"id\":")
    string(server.id)
    raw(",\"name\":")
    string(server.name)
    raw(",\"cpu_name\":")
    string(server.cpuName)
    raw(",\"cpu_cores\":")
    int(server.cpuCores)
    raw(",\"cpu_arch\":")
    string(server.cpuArch)
    raw(",\"os\":")
    string(server.os)
    raw(",\"kernel_version\":")
    string(server.kernelVersion)
    raw(",\"mem_total\":")
    int(server.memTotal)
    raw(",\"swap_total\":")
    int(server.swapTotal)
    raw(",\"disk_total\":")
    int(server.diskTotal)
    raw(",\"ipv4\":")
    string(server.ipv4)
    raw(",\"ipv6\":")
    string(server.ipv6)
    raw(",\"region\":")
    string(server.region)
    raw(",\"country_code\":")
    string(server.countryCode)
    raw(",\"geo_manual\":")
    bool(server.geoManual)
    raw(",\"virtualization\":")
    string(server.virtualization)
    raw(",\"agent_version\":")
    string(server.agentVersion)
    raw(",\"group_id\":")
    string(server.groupID)
    raw(",\"weight\":")
    int(server.weight)
    raw(",\"hidden\":")
    bool(server.hidden)
    raw(",\"remark\":")
    string(server.remark)
    raw(",\"public_remark\":")
    string(server.publicRemark)
    raw(",\"price\":")
    float(server.price)
    raw(",\"billing_cycle\":")
    string(server.billingCycle)
    raw(",\"currency\":")
    string(server.currency)
    raw(",\"expired_at\":")
    if let expiredAt = server.expiredAt { timestamp(expiredAt) } else { raw("null") }
    raw(",\"traffic_limit\":")
    int(server.trafficLimit)
    raw(",\"traffic_limit_type\":")
    string(server.trafficLimitType)
    raw(",\"billing_start_day\":")
    int(server.billingStartDay)
    raw(",\"capabilities\":")
    int(Int64(server.capabilities.rawValue))
    raw(",\"agent_local_capabilities\":")
    int(server.agentLocalCapabilities.map { Int64($0.rawValue) })
    raw(",\"effective_capabilities\":")
    int(server.effectiveCapabilities.map { Int64($0.rawValue) })
    raw(",\"temporary\":")
    if server.temporary.isEmpty { raw("[]") } else { try encoded(server.temporary) }
    raw(",\"protocol_version\":")
    int(server.protocolVersion)
    raw(",\"features\":")
    strings(server.features)
    raw(",\"agent_authority\":")
    try agentAuthority(server.agentAuthority)
    raw(",\"has_token\":")
    bool(server.hasToken)
    raw(",\"outstanding_enrollment\":")
    try encoded(server.outstandingEnrollment)
    raw(",\"created_at\":")
    timestamp(server.createdAt)
    raw(",\"updated_at\":")
    timestamp(server.updatedAt)
    raw("}")
  }

  /// `{"data":[ServerResponse…]}` (`GET /api/servers`).
  static func serverList(_ servers: [ServerResponse]) throws -> Data {
    var writer = WireWriter(capacity: 64 + servers.count * 1100)
    writer.raw("{\"data\":[")
    for (index, server) in servers.enumerated() {
      if index > 0 { writer.raw(",") }
      try writer.write(server)
    }
    writer.raw("]}")
    return writer.data
  }

  /// `{"data":ServerResponse}` (`GET /api/servers/{id}`).
  static func serverDetail(_ server: ServerResponse) throws -> Data {
    var writer = WireWriter(capacity: 1200)
    writer.raw("{\"data\":")
    try writer.write(server)
    writer.raw("}")
    return writer.data
  }
}

// RFC 3339 written from integer fields: `RFC3339Timestamp.description` builds the
// text from a dozen small `String`s, 27 % of a `GET /api/servers` that missed the cache.
extension WireWriter {
  /// Writes `value` in quotes: the bytes of `string(value.description)`.
  mutating func timestamp(_ value: RFC3339Timestamp) {
    timestamp(
      seconds: value.secondsSince1970, nanoseconds: Int64(value.nanoseconds), value.style)
  }

  /// Writes stored nanoseconds in quotes: the bytes of
  /// `string(timestamp(nanos, style).description)`.
  mutating func timestamp(nanos: Int64, _ style: RFC3339Timestamp.Style) {
    var seconds = nanos / 1_000_000_000
    var fraction = nanos % 1_000_000_000
    if fraction < 0 {
      seconds -= 1
      fraction += 1_000_000_000
    }
    timestamp(seconds: seconds, nanoseconds: fraction, style)
  }

  /// `"YYYY-MM-DDTHH:MM:SS[.fff|.ffffff|.fffffffff](Z|+00:00)"`, the shortest exact fraction
  /// of 0, 3, 6 or 9 digits, as `RFC3339Timestamp` formats it; a year outside 0–9999 (never
  /// from stored nanoseconds) goes through that formatter.
  @inline(__always)
  private mutating func timestamp(
    seconds: Int64, nanoseconds: Int64, _ style: RFC3339Timestamp.Style
  ) {
    var days = seconds / 86_400
    var second = seconds % 86_400
    if second < 0 {
      second += 86_400
      days -= 1
    }
    let date = Self.civil(fromDays: days)
    guard (0...9999).contains(date.year), (0..<1_000_000_000).contains(nanoseconds) else {
      string(
        RFC3339Timestamp(
          secondsSince1970: seconds, nanoseconds: Int32(truncatingIfNeeded: nanoseconds),
          style: style
        ).description)
      return
    }
    reserve(38)
    let out = base + count
    out[0] = UInt8(ascii: "\"")
    Self.digits(date.year, 4, out + 1)
    out[5] = UInt8(ascii: "-")
    Self.digits(date.month, 2, out + 6)
    out[8] = UInt8(ascii: "-")
    Self.digits(date.day, 2, out + 9)
    out[11] = UInt8(ascii: "T")
    Self.digits(second / 3600, 2, out + 12)
    out[14] = UInt8(ascii: ":")
    Self.digits(second % 3600 / 60, 2, out + 15)
    out[17] = UInt8(ascii: ":")
    Self.digits(second % 60, 2, out + 18)
    var length = 20
    if nanoseconds != 0 {
      out[20] = UInt8(ascii: ".")
      if nanoseconds % 1_000_000 == 0 {
        Self.digits(nanoseconds / 1_000_000, 3, out + 21)
        length = 24
      } else if nanoseconds % 1_000 == 0 {
        Self.digits(nanoseconds / 1_000, 6, out + 21)
        length = 27
      } else {
        Self.digits(nanoseconds, 9, out + 21)
        length = 30
      }
    }
    if style == .zulu {
      out[length] = UInt8(ascii: "Z")
      length += 1
    } else {
      let offset: StaticString = "+00:00"
      (out + length).initialize(from: offset.utf8Start, count: 6)
      length += 6
    }
    out[length] = UInt8(ascii: "\"")
    count += length + 1
  }

  /// `value` (not negative, below 10^width) in `width` digits, zero-padded.
  @inline(__always)
  private static func digits(_ value: Int64, _ width: Int, _ out: UnsafeMutablePointer<UInt8>) {
    var rest = Int(truncatingIfNeeded: value)
    var index = width
    while index >= 2 {
      index -= 2
      ShortFloat.writePair(rest % 100, to: out + index)
      rest /= 100
    }
    if index == 1 { out[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10) }
  }

  /// Howard Hinnant's `civil_from_days`: the proleptic Gregorian date `days` after 1970-01-01.
  @inline(__always)
  static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra =
      (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
