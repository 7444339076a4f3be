// RFC 3339 timestamps as servers write them (Protocol/README.md §7). Invariants: failures are
// ServerBeeModelsError with code invalidTimestamp only; the parts are in range; both written
// forms parse back to the same instant and style, and writing is stable; the Codable form
// round-trips; and, differential, the instant equals Foundation's Gregorian calendar reading of
// the same fields (years 1600–9999, no leap second) to the second.
import Foundation
import FuzzSupport
import ServerBeeModels

let calendar: Calendar = {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
  return calendar
}()

func number(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
  bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
}

func fuzzOne(_ bytes: [UInt8]) {
  let text = String(decoding: bytes, as: UTF8.self)
  let timestamp: RFC3339Timestamp
  do {
    timestamp = try RFC3339Timestamp(parsing: text)
  } catch let error as ServerBeeModelsError {
    check(error.code == .invalidTimestamp, "code \(error.code)")
    return
  } catch {
    fail("untyped error \(error)")
  }
  check((0..<1_000_000_000).contains(timestamp.nanoseconds), "nanoseconds out of range")
  for style in [RFC3339Timestamp.Style.zulu, .utcOffset] {
    let written = timestamp.formatted(style)
    guard let again = try? RFC3339Timestamp(parsing: written) else {
      fail("\(text.debugDescription) is written as \(written.debugDescription), which is refused")
    }
    check(again == timestamp && again.style == style, "\(written) parses to another instant")
    check(again.formatted(style) == written, "writing \(written) is not stable")
  }
  guard let encoded = try? WireJSON.encode(timestamp),
    let decoded = try? WireJSON.decode(RFC3339Timestamp.self, from: encoded)
  else { fail("\(text.debugDescription) does not round-trip through JSON") }
  check(decoded == timestamp && decoded.style == timestamp.style, "JSON round trip differs")

  // Differential: Foundation's proleptic-enough Gregorian calendar for modern years.
  let b = Array(text.utf8)
  let year = number(b, 0..<4)
  let second = number(b, 17..<19)
  guard year >= 1600, second < 60 else { return }
  var offset = 0
  if timestamp.style == .utcOffset {
    let sign = b[b.count - 6]
    let hours = number(b, (b.count - 5)..<(b.count - 3))
    let minutes = number(b, (b.count - 2)..<b.count)
    offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
  }
  let components = DateComponents(
    year: year, month: number(b, 5..<7), day: number(b, 8..<10), hour: number(b, 11..<13),
    minute: number(b, 14..<16), second: second)
  guard let date = calendar.date(from: components) else { return }
  let expected = Int64(date.timeIntervalSince1970.rounded()) - Int64(offset)
  check(
    timestamp.secondsSince1970 == expected,
    "\(text.debugDescription): \(timestamp.secondsSince1970) s, Foundation says \(expected) s")
}

runFuzzer(fuzzOne)
