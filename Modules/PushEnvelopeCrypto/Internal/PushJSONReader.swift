import ServerBeeCore
import ServerBeeModels

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A bounded, strict reader for the two JSON shapes a notification extension reads: the APNs
/// payload around `serverbee_envelope` (Protocol/Push.md §3.1, §3.2) and the decrypted content
/// (Protocol/Push.md §3.4).
///
/// Why it exists: Foundation's `JSONDecoder` was more than half of the extension step's
/// instructions (Documentation/Performance.md §1 budget: ≤ 100 k per push from the raw payload).
/// Why it may only *accept*: `JSONDecoder` is the reference. This reader answers either the value
/// `JSONDecoder` would give, or `nil` ("undecided"), and the opener then asks `JSONDecoder`, so
/// every rejection and every unusual input keeps exactly the Codable path's behaviour and error
/// code. It therefore accepts only a strict subset of what `JSONDecoder` accepts, and leaves to it:
///
/// - anything that is not RFC 8259 JSON (`JSONDecoder` is lenient about values it does not
///   read: trailing commas, bad escapes, raw control characters), a byte order mark, trailing
///   bytes, nesting deeper than ``maximumDepth``;
/// - a key of a read object that contains an escape (`JSONDecoder` matches unescaped keys), or a
///   known key that appears twice (`JSONDecoder` keeps the first);
/// - `null`, a value of the wrong type, a missing required key;
/// - an integer that is not plain digits (`1.0`, `1e0`, `-0`, more than 18 digits);
/// - a string that is not well-formed UTF-8 or holds an unpaired `\u` surrogate.
///
/// Unknown keys are skipped (after a strict syntax check of their value), as the Codable types
/// skip them. `PushJSONReaderDifferentialTests` compares both paths on valid and hostile input.
struct PushJSONReader {
  /// Arrays and objects nested deeper than this are left to `JSONDecoder`.
  static let maximumDepth = 32

  /// The marker of "undecided": the caller falls back to `JSONDecoder`.
  struct Undecided: Error {}

  private let bytes: UnsafeBufferPointer<UInt8>
  private var index = 0

  private init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
  }

  // MARK: Entry points

  /// The `serverbee_envelope` of an APNs payload, or `nil` when `JSONDecoder` must decide.
  static func envelope(fromAPNSPayload payload: Data) -> PushEnvelope? {
    payload.withUnsafeBytes { raw in
      var reader = PushJSONReader(raw.bindMemory(to: UInt8.self))
      return try? reader.apnsPayload()
    }
  }

  /// The content object of a decrypted plaintext, or `nil` when `JSONDecoder` must decide.
  static func content(from plaintext: [UInt8]) -> PushContent? {
    plaintext.withUnsafeBufferPointer { buffer in
      var reader = PushJSONReader(buffer)
      return try? reader.document { (reader: inout PushJSONReader) throws(Undecided) in
        try reader.content()
      }
    }
  }

  // MARK: Shapes

  private mutating func apnsPayload() throws(Undecided) -> PushEnvelope {
    try document { (reader: inout PushJSONReader) throws(Undecided) in
      var envelope: PushEnvelope?
      try reader.object(depth: 1) { (reader: inout PushJSONReader, key) throws(Undecided) in
        if reader.key(key, is: "serverbee_envelope") {
          guard envelope == nil else { throw Undecided() }
          envelope = try reader.envelope()
        } else {
          try reader.skipValue(depth: 1)
        }
      }
      guard let envelope else { throw Undecided() }
      return envelope
    }
  }

  private mutating func envelope() throws(Undecided) -> PushEnvelope {
    var version: Int?
    var keyID: String?
    var identity: String?
    var nonce: String?
    var ciphertext: String?
    try object(depth: 2) { (reader: inout PushJSONReader, key) throws(Undecided) in
      if reader.key(key, is: "version") {
        guard version == nil, let value = Int(exactly: try reader.integer()) else {
          throw Undecided()
        }
        version = value
      } else if reader.key(key, is: "key_id") {
        try reader.once(&keyID)
      } else if reader.key(key, is: "identity") {
        try reader.once(&identity)
      } else if reader.key(key, is: "nonce") {
        try reader.once(&nonce)
      } else if reader.key(key, is: "ciphertext") {
        try reader.once(&ciphertext)
      } else {
        try reader.skipValue(depth: 2)
      }
    }
    guard let version, let keyID, let identity, let nonce, let ciphertext else {
      throw Undecided()
    }
    return PushEnvelope(
      version: version, keyID: keyID, identity: identity, nonce: nonce, ciphertext: ciphertext)
  }

  private mutating func content() throws(Undecided) -> PushContent {
    var kind: String?
    var deploymentID: String?
    var userID: String?
    var installationID: String?
    var eventID: String?
    var createdAt: Int64?
    var expiresAt: Int64?
    var serverID: String?
    var securityEventID: String?
    var securityEventType: String?
    var taskRun: PushTaskRunSummary?
    var alert: PushAlertSummary?
    try object(depth: 1) { (reader: inout PushJSONReader, key) throws(Undecided) in
      switch key.count {
      case 4 where reader.key(key, is: "kind"): try reader.once(&kind)
      case 5 where reader.key(key, is: "alert"):
        guard alert == nil else { throw Undecided() }
        alert = try reader.alert()
      case 7 where reader.key(key, is: "user_id"): try reader.once(&userID)
      case 8 where reader.key(key, is: "event_id"): try reader.once(&eventID)
      case 8 where reader.key(key, is: "task_run"):
        guard taskRun == nil else { throw Undecided() }
        taskRun = try reader.taskRun()
      case 9 where reader.key(key, is: "server_id"): try reader.once(&serverID)
      case 10 where reader.key(key, is: "created_at"): try reader.once(&createdAt)
      case 10 where reader.key(key, is: "expires_at"): try reader.once(&expiresAt)
      case 13 where reader.key(key, is: "deployment_id"): try reader.once(&deploymentID)
      case 15 where reader.key(key, is: "installation_id"): try reader.once(&installationID)
      case 17 where reader.key(key, is: "security_event_id"): try reader.once(&securityEventID)
      case 19 where reader.key(key, is: "security_event_type"):
        try reader.once(&securityEventType)
      default: try reader.skipValue(depth: 1)
      }
    }
    guard let kind, let deploymentID, let userID, let installationID, let eventID,
      let createdAt, let expiresAt
    else { throw Undecided() }
    return PushContent(
      kind: PushContentKind(rawValue: kind), deploymentID: deploymentID, userID: userID,
      installationID: installationID, eventID: eventID, createdAt: createdAt,
      expiresAt: expiresAt, serverID: serverID, securityEventID: securityEventID,
      securityEventType: securityEventType.map(PushSecurityEventType.init(rawValue:)),
      taskRun: taskRun, alert: alert)
  }

  private mutating func alert() throws(Undecided) -> PushAlertSummary {
    var alertKey: String?
    var status: String?
    var ruleName: String?
    var serverName: String?
    try object(depth: 2) { (reader: inout PushJSONReader, key) throws(Undecided) in
      if reader.key(key, is: "alert_key") {
        try reader.once(&alertKey)
      } else if reader.key(key, is: "status") {
        try reader.once(&status)
      } else if reader.key(key, is: "rule_name") {
        try reader.once(&ruleName)
      } else if reader.key(key, is: "server_name") {
        try reader.once(&serverName)
      } else {
        try reader.skipValue(depth: 2)
      }
    }
    guard let alertKey, let status, let ruleName, let serverName else { throw Undecided() }
    return PushAlertSummary(
      alertKey: alertKey, status: PushAlertStatus(rawValue: status), ruleName: ruleName,
      serverName: serverName)
  }

  private mutating func taskRun() throws(Undecided) -> PushTaskRunSummary {
    var taskID: String?
    var runID: String?
    var total: Int64?
    var failed: Int64?
    var timedOut: Int64?
    var offline: Int64?
    var denied: Int64?
    try object(depth: 2) { (reader: inout PushJSONReader, key) throws(Undecided) in
      if reader.key(key, is: "task_id") {
        try reader.once(&taskID)
      } else if reader.key(key, is: "run_id") {
        try reader.once(&runID)
      } else if reader.key(key, is: "total") {
        try reader.once(&total)
      } else if reader.key(key, is: "failed") {
        try reader.once(&failed)
      } else if reader.key(key, is: "timed_out") {
        try reader.once(&timedOut)
      } else if reader.key(key, is: "offline") {
        try reader.once(&offline)
      } else if reader.key(key, is: "denied") {
        try reader.once(&denied)
      } else {
        try reader.skipValue(depth: 2)
      }
    }
    guard let taskID, let runID, let total, let failed, let timedOut, let offline, let denied
    else { throw Undecided() }
    return PushTaskRunSummary(
      taskID: taskID, runID: runID, total: total, failed: failed, timedOut: timedOut,
      offline: offline, denied: denied)
  }

  /// Reads a string into a slot that must still be empty (a repeated key is undecided).
  private mutating func once(_ slot: inout String?) throws(Undecided) {
    guard slot == nil else { throw Undecided() }
    slot = try string()
  }

  /// Reads an integer into a slot that must still be empty.
  private mutating func once(_ slot: inout Int64?) throws(Undecided) {
    guard slot == nil else { throw Undecided() }
    slot = try integer()
  }

  // MARK: Structure

  /// One JSON text: optional white space, the value `body` reads, optional white space, end.
  private mutating func document<T>(
    _ body: (inout PushJSONReader) throws(Undecided) -> T
  ) throws(Undecided) -> T {
    skipWhitespace()
    let value = try body(&self)
    skipWhitespace()
    guard index == bytes.count else { throw Undecided() }
    return value
  }

  /// Reads an object whose keys hold no escapes, calling `member` with each key's byte range
  /// once the reader stands on its value; `member` must read or skip the value.
  private mutating func object(
    depth: Int, _ member: (inout PushJSONReader, Range<Int>) throws(Undecided) -> Void
  ) throws(Undecided) {
    guard depth <= Self.maximumDepth else { throw Undecided() }
    try expect(UInt8(ascii: "{"))
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      index += 1
      return
    }
    while true {
      let key = try plainKey()
      skipWhitespace()
      try expect(UInt8(ascii: ":"))
      skipWhitespace()
      try member(&self, key)
      skipWhitespace()
      guard let byte = peek() else { throw Undecided() }
      index += 1
      if byte == UInt8(ascii: "}") { return }
      guard byte == UInt8(ascii: ",") else { throw Undecided() }
      skipWhitespace()
    }
  }

  /// A key without escapes, control characters or non-ASCII bytes: its byte range.
  private mutating func plainKey() throws(Undecided) -> Range<Int> {
    try expect(UInt8(ascii: "\""))
    let start = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return start..<(index - 1)
      }
      guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { throw Undecided() }
      index += 1
    }
    throw Undecided()
  }

  private func key(_ range: Range<Int>, is name: StaticString) -> Bool {
    guard range.count == name.utf8CodeUnitCount else { return false }
    let text = name.utf8Start
    for offset in 0..<range.count where bytes[range.lowerBound + offset] != text[offset] {
      return false
    }
    return true
  }

  /// Skips any RFC 8259 value, strictly (see the type's discussion).
  private mutating func skipValue(depth: Int) throws(Undecided) {
    guard let byte = peek() else { throw Undecided() }
    switch byte {
    case UInt8(ascii: "\""):
      _ = try stringBytes(decoding: false)
    case UInt8(ascii: "{"):
      try object(depth: depth + 1) { (reader: inout PushJSONReader, _) throws(Undecided) in
        try reader.skipValue(depth: depth + 1)
      }
    case UInt8(ascii: "["):
      guard depth + 1 <= Self.maximumDepth else { throw Undecided() }
      index += 1
      skipWhitespace()
      if peek() == UInt8(ascii: "]") {
        index += 1
        return
      }
      while true {
        try skipValue(depth: depth + 1)
        skipWhitespace()
        guard let next = peek() else { throw Undecided() }
        index += 1
        if next == UInt8(ascii: "]") { return }
        guard next == UInt8(ascii: ",") else { throw Undecided() }
        skipWhitespace()
      }
    case UInt8(ascii: "t"): try literal("true")
    case UInt8(ascii: "f"): try literal("false")
    case UInt8(ascii: "n"): try literal("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
    default: throw Undecided()
    }
  }

  private mutating func literal(_ word: StaticString) throws(Undecided) {
    let count = word.utf8CodeUnitCount
    guard bytes.count - index >= count else { throw Undecided() }
    let text = word.utf8Start
    for offset in 0..<count where bytes[index + offset] != text[offset] { throw Undecided() }
    index += count
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, at most 32 bytes long.
  private mutating func skipNumber() throws(Undecided) {
    let start = index
    if peek() == UInt8(ascii: "-") { index += 1 }
    guard let first = peek(), isDigit(first) else { throw Undecided() }
    index += 1
    if first == UInt8(ascii: "0") {
      if let next = peek(), isDigit(next) { throw Undecided() }
    } else {
      skipDigits()
    }
    if peek() == UInt8(ascii: ".") {
      index += 1
      guard let next = peek(), isDigit(next) else { throw Undecided() }
      skipDigits()
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      index += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
      guard let next = peek(), isDigit(next) else { throw Undecided() }
      skipDigits()
    }
    guard index - start <= 32 else { throw Undecided() }
  }

  private mutating func skipDigits() {
    while let byte = peek(), isDigit(byte) { index += 1 }
  }

  // MARK: Values

  /// A plain integer: `-?` then 1…18 digits without a leading zero; `-0`, fractions and
  /// exponents are undecided (JSONDecoder reads `1.0` and `1e0` as integers).
  private mutating func integer() throws(Undecided) -> Int64 {
    var negative = false
    if peek() == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    let start = index
    var value: Int64 = 0
    while let byte = peek(), isDigit(byte) {
      value = value &* 10 &+ Int64(byte &- UInt8(ascii: "0"))
      index += 1
    }
    let digits = index - start
    guard digits >= 1, digits <= 18, bytes[start] != UInt8(ascii: "0") || digits == 1 else {
      throw Undecided()
    }
    if let next = peek(),
      next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E")
    {
      throw Undecided()
    }
    if negative {
      guard value != 0 else { throw Undecided() }
      return -value
    }
    return value
  }

  /// A string value, unescaped.
  private mutating func string() throws(Undecided) -> String {
    guard peek() == UInt8(ascii: "\""), let value = try stringBytes(decoding: true) else {
      throw Undecided()
    }
    return value
  }

  /// Reads a string from its opening quote. With `decoding`, returns its value; otherwise only
  /// checks it (the same strictness either way) and returns `nil`.
  private mutating func stringBytes(decoding: Bool) throws(Undecided) -> String? {
    index += 1
    let start = index
    let run = ByteScan.plainRun(in: bytes, from: start)
    index = run.end
    guard index < bytes.count else { throw Undecided() }
    switch bytes[index] {
    case UInt8(ascii: "\""):
      let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
      index += 1
      if run.sawNonASCII { guard UTF8Sequence.isWellFormed(raw) else { throw Undecided() } }
      return decoding ? String(decoding: raw, as: UTF8.self) : nil
    case UInt8(ascii: "\\"):
      return try escapedString(from: start, decoding: decoding)
    default:
      throw Undecided()  // a raw control character
    }
  }

  /// The slow half of ``stringBytes(decoding:)``: a string with escapes, copied out. The reader
  /// stands on the first backslash; `start` is the first byte after the opening quote.
  private mutating func escapedString(from start: Int, decoding: Bool) throws(Undecided)
    -> String?
  {
    var out: [UInt8] = []
    out.reserveCapacity(index - start + 16)
    var runStart = start
    while true {
      let run = ByteScan.plainRun(in: bytes, from: index)
      index = run.end
      guard index < bytes.count else { throw Undecided() }
      let byte = bytes[index]
      guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { throw Undecided() }
      // Raw runs between escapes are checked on their own: a decoded escape always starts
      // with a lead byte, so it can neither complete nor continue a broken raw sequence.
      let raw = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
      guard UTF8Sequence.isWellFormed(raw) else { throw Undecided() }
      out.append(contentsOf: raw)
      index += 1
      if byte == UInt8(ascii: "\"") {
        return decoding ? String(decoding: out, as: UTF8.self) : nil
      }
      try unescape(into: &out)
      runStart = index
    }
  }

  /// One escape after its backslash, appended as UTF-8.
  private mutating func unescape(into out: inout [UInt8]) throws(Undecided) {
    guard let byte = peek() else { throw Undecided() }
    index += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
    case UInt8(ascii: "b"): out.append(0x08)
    case UInt8(ascii: "f"): out.append(0x0C)
    case UInt8(ascii: "n"): out.append(0x0A)
    case UInt8(ascii: "r"): out.append(0x0D)
    case UInt8(ascii: "t"): out.append(0x09)
    case UInt8(ascii: "u"):
      let unit = try hexUnit()
      var scalar = UInt32(unit)
      if unit & 0xFC00 == 0xD800 {
        guard peek() == UInt8(ascii: "\\") else { throw Undecided() }
        index += 1
        guard peek() == UInt8(ascii: "u") else { throw Undecided() }
        index += 1
        let low = try hexUnit()
        guard low & 0xFC00 == 0xDC00 else { throw Undecided() }
        scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      } else if unit & 0xFC00 == 0xDC00 {
        throw Undecided()
      }
      appendUTF8(scalar, to: &out)
    default:
      throw Undecided()
    }
  }

  /// Appends a scalar value (never a surrogate: the caller pairs or refuses them) as UTF-8.
  private func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      out.append(UInt8(truncatingIfNeeded: scalar))
    case 0x80..<0x800:
      out.append(0xC0 | UInt8(truncatingIfNeeded: scalar >> 6))
      out.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
    case 0x800..<0x10000:
      out.append(0xE0 | UInt8(truncatingIfNeeded: scalar >> 12))
      out.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F))
      out.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
    default:
      out.append(0xF0 | UInt8(truncatingIfNeeded: scalar >> 18))
      out.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 12) & 0x3F))
      out.append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F))
      out.append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
    }
  }

  private mutating func hexUnit() throws(Undecided) -> UInt16 {
    guard bytes.count - index >= 4 else { throw Undecided() }
    var unit: UInt16 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw Undecided()
      }
      unit = unit << 4 | UInt16(digit)
      index += 1
    }
    return unit
  }

  // MARK: Bytes

  private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func expect(_ byte: UInt8) throws(Undecided) {
    guard peek() == byte else { throw Undecided() }
    index += 1
  }

  private mutating func skipWhitespace() {
    while let byte = peek(),
      byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    {
      index += 1
    }
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}
