import Foundation
import Testing

@testable import RealtimeStream

@Suite struct JSONScannerTests {
  /// Runs `body` on a scanner over `text` and requires the whole input to be consumed.
  private func scan<T>(_ text: String, _ body: (inout JSONScanner) throws(JSONScanner.Failure) -> T)
    throws -> T
  {
    let bytes = Array(text.utf8)
    return try bytes.withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(buffer)
      let value = try body(&scanner)
      try scanner.expectEnd()
      return value
    }
  }

  @Test(arguments: [
    "0", "-0", "1", "12.5", "0.53", "-3.91", "28.528587341308594", "66.6609115600586",
    "1e3", "1E-7", "2.5e+10", "123456789012345678", "0.000001", "9007199254740993",
    "1.7976931348623157e308", "5e-324", "3.141592653589793238462643383279",
  ])
  func readsNumbersExactlyAsTheStandardLibraryDoes(text: String) throws {
    let value = try scan(text) { (s) throws(JSONScanner.Failure) in try s.readDouble() }
    #expect(value == Double(text))
    #expect(value.sign == (Double(text)?.sign ?? .plus))
  }

  @Test func readsRandomShortestRepresentationsExactly() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let value = Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
      let scaled = [value, Double(Float(Double.random(in: 0...100, using: &generator)))]
      for candidate in scaled where candidate.isFinite {
        let text = "\(candidate)"
        #expect(
          try scan(text) { (s) throws(JSONScanner.Failure) in try s.readDouble() } == candidate)
      }
    }
  }

  @Test(arguments: [("0", 0), ("-42", -42), ("9223372036854775807", Int64.max), ("4.0", 4)])
  func readsIntegersIncludingWholeFloats(text: String, expected: Int64) throws {
    #expect(try scan(text) { (s) throws(JSONScanner.Failure) in try s.readInt64() } == expected)
  }

  @Test(arguments: ["9223372036854775808", "4.5", "-", "abc", "1.", "1e"])
  func refusesBadIntegers(text: String) {
    #expect(throws: JSONScanner.Failure.self) {
      try scan(text) { (s) throws(JSONScanner.Failure) in try s.readInt64() }
    }
  }

  @Test func readsStringsWithAndWithoutEscapes() throws {
    let plain = try scan(#""新加坡-BGP-000""#) { (s) throws(JSONScanner.Failure) in try s.readString()
    }
    #expect(plain == "新加坡-BGP-000")
    let escaped = try scan(#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#) {
      (s) throws(JSONScanner.Failure) in try s.readString()
    }
    #expect(escaped == "a\"b\\c/d\né😀")
  }

  @Test func walksNestedObjectsAndSkipsUnknownValues() throws {
    let text = #"{"type":"x","skip":{"a":[1,{"b":null}],"c":"\"}"},"n":7,"t":true,"list":[]}"#
    var seen: [String] = []
    var n: Int64 = 0
    var flag = false
    try scan(text) { (s) throws(JSONScanner.Failure) in
      try s.readObject { (s, key) throws(JSONScanner.Failure) in
        seen.append(String(decoding: key, as: UTF8.self))
        if key.equals("n") {
          n = try s.readInt64()
        } else if key.equals("t") {
          flag = try s.readBool()
        } else {
          try s.skipValue()
        }
      }
    }
    #expect(seen == ["type", "skip", "n", "t", "list"])
    #expect(n == 7)
    #expect(flag)
  }

  @Test(arguments: [
    "{", #"{"a":}"#, #"{"a" 1}"#, #"{"a":1,}"#, "[1,2", #""unterminated"#, "[1 2]", "tru",
    "{\"a\":\"x\ny\"}", #"{"a":1}junk"#, #"{a:1}"#,
  ])
  func refusesMalformedInputWithAnOffset(text: String) {
    #expect(throws: JSONScanner.Failure.self) {
      try scan(text) { (s) throws(JSONScanner.Failure) in try s.skipValue() }
    }
  }

  @Test func refusesNestingDeeperThanTheLimit() {
    let text = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    #expect(throws: JSONScanner.Failure.self) {
      try scan(text) { (s) throws(JSONScanner.Failure) in try s.skipValue() }
    }
  }

  @Test func readsNullFloatsAsNaN() throws {
    let value = try scan("null") { (s) throws(JSONScanner.Failure) in try s.readLenientDouble() }
    #expect(value.isNaN)
  }

  /// `readInt64`'s eight-digits-at-a-time path runs only with 17 bytes ahead; the same text
  /// with and without that room must give the same value or both an error.
  @Test func readsIntegersTheSameWithAndWithoutRoomForTheWordPath() throws {
    let texts = [
      "0", "-0", "7", "-7", "12345678", "-12345678", "123456789", "1234567890123456",
      "123456789012345", "-999999999999999", "9999999999999999", "00", "01", "-01", "007",
      "4.0", "4e2", "4E2", "12345678.0", "123456789E1", "1-", "-", "-a", "a", "9223372036854775807",
      "-9223372036854775808", "9223372036854775808", "1774692930", "11126617438", "0.5",
    ]
    var generator = SystemRandomNumberGenerator()
    var plain: [String] = []
    for digits in 1...19 {
      for _ in 0..<20 {
        let text = String(
          (0..<digits).map { at in
            Character("\(generator.next() % (at == 0 ? 9 : 10) + (at == 0 ? 1 : 0))")
          })
        plain += [text, "-" + text]
      }
    }
    for text in texts + plain {
      let short = Result { try scan(text) { (s) throws(JSONScanner.Failure) in try s.readInt64() } }
      let padded = text + String(repeating: " ", count: 20)
      let long = Result {
        try scan(padded) { (s) throws(JSONScanner.Failure) in try s.readInt64() }
      }
      switch (short, long) {
      case (.success(let a), .success(let b)): #expect(a == b, "\(text)")
      case (.failure, .failure): break
      default: Issue.record("\(text): \(short) but \(long) with room")
      }
    }
    for text in plain {
      let long = try scan(text + String(repeating: " ", count: 20)) {
        (s) throws(JSONScanner.Failure) in try? s.readInt64()
      }
      #expect(long == Int64(text), "\(text)")
    }
  }

  /// `readDouble`'s eight-digits-at-a-time path runs only with 26 bytes ahead; with and without
  /// that room a text must give the same bits as the standard library (or both an error).
  @Test func readsDecimalsTheSameWithAndWithoutRoomForTheWordPath() throws {
    var texts = [
      "0", "-0", "0.0", "-0.0", "0.53", "-3.91", "28.528587341308594", "66.6609115600586",
      "1234567.123456789012", "1234567.1234567890123", "9007199254740993.5", "12345678.5",
      "0.000001", "0.1234567890123456789", "1.", "-", "-.5", ".5", "01.5", "1.5e3", "1.5E-3",
      "7", "1234567", "12345678", "99.99999999999999999", "0.30000000000000004",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<1_000 {
      let random = Double.random(in: 0...100, using: &generator)
      texts += ["\(random)", "\(Double(Float(random)))", "\(-random / 1_000)"]
      let digits = Int.random(in: 1...18, using: &generator)
      let whole = Int.random(in: 1...min(digits, 7), using: &generator)
      let text = String(
        (0..<digits).map { at in
          Character("\(generator.next() % (at == 0 ? 9 : 10) + (at == 0 ? 1 : 0))")
        })
      texts.append(whole == digits ? text : "\(text.prefix(whole)).\(text.dropFirst(whole))")
    }
    for text in texts {
      let short = Result {
        try scan(text) { (s) throws(JSONScanner.Failure) in try s.readDouble() }
      }
      let long = Result {
        try scan(text + String(repeating: " ", count: 30)) {
          (s) throws(JSONScanner.Failure) in try s.readDouble()
        }
      }
      switch (short, long) {
      case (.success(let a), .success(let b)):
        #expect(a.bitPattern == b.bitPattern, "\(text)")
        #expect(b.bitPattern == Double(text)?.bitPattern, "\(text)")
      case (.failure, .failure): break
      default: Issue.record("\(text): \(short) but \(long) with room")
      }
    }
  }

  /// `consumeKey` takes exactly `"key":` and nothing else, where `readKey` would read the same
  /// key, and leaves the scanner at the value.
  @Test func consumesAPatternOnlyWhereTheKeyIsExactlyThere() throws {
    let keys: [StaticString] = [
      "id", "os", "cpu", "load15", "mem_used", "net_in_speed", "disk_write_bytes_per_sec",
      "outstanding_enrollment", "abcdefghijklmnopqrstuvwxyz123",
    ]
    let room = String(repeating: " ", count: 32)
    for key in keys {
      let pattern = KeyPattern(key)
      let name = key.description
      let exact = Array("\"\(name)\":1\(room)".utf8)
      exact.withUnsafeBufferPointer { bytes in
        var s = JSONScanner(bytes)
        let consumed = s.consumeKey(pattern)
        #expect(consumed, "\(name)")
        #expect(s.index == name.utf8.count + 3)
      }
      // Every one-byte change, one byte more or less, a space before the colon, no quote.
      var others = [
        "\"\(name)x\":1\(room)", "\"\(name.dropLast())\":1\(room)", "\"\(name)\" :1\(room)",
        "\(name)\":1\(room)",
      ].map { Array($0.utf8) }
      for i in 0..<(name.utf8.count + 3) {
        var changed = exact
        changed[i] ^= 0x01
        others.append(changed)
      }
      for other in others {
        other.withUnsafeBufferPointer { bytes in
          var s = JSONScanner(bytes)
          let consumed = s.consumeKey(pattern)
          #expect(!consumed, "\(String(decoding: other, as: UTF8.self))")
          #expect(s.index == 0)
        }
      }
    }
  }
}
