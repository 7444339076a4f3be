import Foundation
import Testing

@testable import ServerBeeModels

@Suite struct WireJSONTests {
  private struct Sample: Codable {
    var zeta: Int
    var alpha: String
    var ratio: Double
    var missing: String?
    var nested: [Int64]
  }

  @Test func encodesKeysInDeclarationOrderWithNullsAndDecimalFloats() throws {
    let data = try WireJSON.encode(
      Sample(zeta: 1, alpha: "a/b \"q\" 中", ratio: 0, missing: nil, nested: [1, -2]))
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"{"zeta":1,"alpha":"a/b \"q\" 中","ratio":0.0,"missing":null,"nested":[1,-2]}"#)
  }

  @Test(arguments: [
    (0.0, "0.0"), (-0.0, "-0.0"), (12.5, "12.5"), (28.528587341308594, "28.528587341308594"),
    (1e20, "1e20"), (1.5e-7, "1.5e-7"), (Double.nan, "null"), (Double.infinity, "null"),
    (3.0, "3.0"),
  ])
  func writesFloatsTheWaySerdeDoes(value: Double, expected: String) throws {
    #expect(String(decoding: try WireJSON.encode([value]), as: UTF8.self) == "[\(expected)]")
  }

  @Test func escapesControlCharactersButNotSlashes() throws {
    let data = try WireJSON.encode(["line\nbreak\t\u{01}/"])
    #expect(String(decoding: data, as: UTF8.self) == #"["line\nbreak\t\u0001/"]"#)
  }

  @Test func stringsWithAndWithoutEscapesMatchTheByteByByteRule() {
    // The reference rule: `"` and `\` escaped, \n \r \t \b \f short, other controls
    // `\u00XX`, every other byte as is (strings with no escape are copied whole).
    func reference(_ text: String) -> [UInt8] {
      var out: [UInt8] = [UInt8(ascii: "\"")]
      for byte in text.utf8 {
        switch byte {
        case 0x22: out += Array(#"\""#.utf8)
        case 0x5C: out += Array(#"\\"#.utf8)
        case 0x0A: out += Array(#"\n"#.utf8)
        case 0x0D: out += Array(#"\r"#.utf8)
        case 0x09: out += Array(#"\t"#.utf8)
        case 0x08: out += Array(#"\b"#.utf8)
        case 0x0C: out += Array(#"\f"#.utf8)
        case 0..<0x20: out += Array(String(format: "\\u%04x", Int(byte)).utf8)
        default: out.append(byte)
        }
      }
      out.append(UInt8(ascii: "\""))
      return out
    }
    let texts = [
      "", "plain", "Zürich 東京 🐝", "a/b", "\u{7F}", String(repeating: "long ", count: 200),
      "quote \" inside", "back\\slash", "tab\tnew\nline\r\u{08}\u{0C}\u{01}\u{1F}",
      String(repeating: "x", count: 100) + "\u{00}", "é" + "\"",
      String("substring of this"[..<String.Index(utf16Offset: 9, in: "substring of this")]),
    ]
    for text in texts {
      var out: [UInt8] = []
      WireJSON.appendString(text, to: &out)
      #expect(out == reference(text), "\(text)")
    }
  }

  @Test func missingFieldErrorNamesTheFullPath() {
    let body = Data(
      #"{"data":{"items":[{"zeta":1,"alpha":"x","ratio":1,"nested":[]},{"zeta":2}]}}"#.utf8)
    struct Page: Decodable { let items: [Sample] }
    #expect {
      try WireJSON.decode(APIResponse<Page>.self, from: body)
    } throws: { error in
      let error = error as? ServerBeeModelsError
      return error?.code == .missingField && error?.message.contains("data.items[1].alpha") == true
    }
  }

  @Test func wrongTypeIsAnInvalidFieldError() {
    #expect {
      try WireJSON.decode(Sample.self, from: Data(#"{"zeta":"one"}"#.utf8))
    } throws: { error in
      let error = error as? ServerBeeModelsError
      return error?.code == .invalidField && error?.message.contains("zeta") == true
    }
  }

  @Test(arguments: ["", "{", "not json", "{\"a\":}"])
  func malformedInputIsAMalformedJSONError(text: String) {
    #expect {
      try WireJSON.decode(JSONValue.self, from: Data(text.utf8))
    } throws: { error in
      (error as? ServerBeeModelsError)?.code == .malformedJSON
    }
  }

  /// Found by `fuzz-live-decoder`: Foundation's decoder answered the same invalid UTF-8 bytes
  /// with `malformedJSON` on one call and `invalidField` on another.
  @Test(arguments: [
    Array(#"{"type":"update"#.utf8) + [0xFF, 0xFF] + Array(#"","servers":[{"id":1}]}"#.utf8),
    Array(#"{"a":""#.utf8) + [0xC0, 0xAF] + Array(#""}"#.utf8),
    Array(#"{"a":1,"b":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8),
  ])
  func invalidUTF8IsAlwaysAMalformedJSONError(bytes: [UInt8]) {
    for _ in 0..<20 {
      #expect {
        try WireJSON.decode(LiveStreamMessage.self, from: Data(bytes))
      } throws: { ($0 as? ServerBeeModelsError)?.code == .malformedJSON }
    }
  }

  /// Found by `fuzz-live-decoder`: JSON that is broken (raw control characters in strings) but
  /// read lazily failed as `malformedJSON` or as `invalidField`, depending on the call.
  @Test func brokenJSONIsAlwaysAMalformedJSONError() {
    let text =
      "{\"type\":\"\u{0C}g\u{1F}\0en_changed\",\"server_id\":\"c1\",\"agent_authority\":"
      + "{\"statux\":\"claimed\",\"\0\0ing_offer\":null}}"
    for _ in 0..<20 {
      #expect {
        try WireJSON.decode(LiveStreamMessage.self, from: Data(text.utf8))
      } throws: { ($0 as? ServerBeeModelsError)?.code == .malformedJSON }
    }
  }

  @Test func oversizeInputIsRefusedBeforeParsing() {
    let huge = Data(repeating: 0x20, count: WireJSON.maximumInputSize + 1)
    #expect {
      try WireJSON.decode(JSONValue.self, from: huge)
    } throws: { error in
      (error as? ServerBeeModelsError)?.code == .tooLarge
    }
  }

  @Test func integersSentAsWholeFloatsDecode() throws {
    struct Counter: Decodable { let count: Int64 }
    #expect(try WireJSON.decode(Counter.self, from: Data(#"{"count":4.0}"#.utf8)).count == 4)
  }

  @Test func jsonValueRoundTripsAndComparesRegardlessOfKeyOrder() throws {
    let text = #"{"a":[1,true,null,"x"],"b":{"c":2.5}}"#
    let value = try WireJSON.decode(JSONValue.self, from: Data(text.utf8))
    #expect(value["a"]?[1] == .bool(true))
    #expect(value["b"]?["c"] == .number(2.5))
    let reordered = try WireJSON.decode(
      JSONValue.self, from: Data(#"{"b":{"c":2.5},"a":[1,true,null,"x"]}"#.utf8))
    #expect(value == reordered)
    let built = JSONValue.object([("z", .number(1)), ("a", .string("/"))])
    #expect(String(decoding: try WireJSON.encode(built), as: UTF8.self) == #"{"z":1,"a":"/"}"#)
  }
}

@Suite struct WireJSONScalarTests {
  private struct Scalars: Codable, Equatable {
    var a: Int8 = -8
    var b: UInt8 = 200
    var c: Int16 = -1600
    var d: UInt16 = 65000
    var e: UInt = 42
    var f: Float = 1.5
    var blob = Data([0, 1, 2, 254, 255])
  }

  @Test func everyStandardScalarAndDataEncodeAndDecodeBack() throws {
    let data = try WireJSON.encode(Scalars())
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"{"a":-8,"b":200,"c":-1600,"d":65000,"e":42,"f":1.5,"blob":"AAEC/v8="}"#)
    #expect(try WireJSON.decode(Scalars.self, from: data) == Scalars())
  }
}
