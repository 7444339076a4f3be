import Foundation
import ServerBeeCore
import Testing

/// ServerBeeModels needs only FoundationEssentials, so it carries its own versions of the few
/// Foundation helpers it used. These tests hold each one to the Foundation behaviour it
/// replaced, on tables of known traps and on seeded random inputs.
@Suite struct FoundationParityTests {
  /// SplitMix64: a small seeded generator, so a failure can be reproduced.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  private static func acceptedByJSONSerialization(_ bytes: [UInt8]) -> Bool {
    (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
  }

  static let jsonTable: [String] = [
    "", " ", "1", "-0", "-", "01", "-01", "0.5", "1.", ".5", "1e", "1e+", "1E+2", "1.e5", "1e5.2",
    "1e400", "-1e400", "1e-400", "123456789012345678901234567890", "1.5x", "[1 2]", "[1,]",
    "[,]", "[1,,2]", "{,}", #"{"a":1,}"#, #"{"a":1,"a":2}"#, #"{"a" 1}"#, #"{a:1}"#, "[true ]",
    "[tru]", "nul", "null", "nulls", #""x""#, #""\u00e9""#, #""\ud83d\ude00""#, #""\ud800""#,
    #""\udc00""#, #""\ud800\u0041""#, #""\ud800x""#, #""\x""#, #""\u12""#, #""\uZZZZ""#,
    "\"\t\"", "\"\u{7F}\"", "\u{FEFF}[1]", "\u{FEFF}1", "[1]x", "[1] ", " \r\n\t[1]", "[1]\u{A0}",
    "{\"a\":[1,{\"b\":null}],\"c\":\"d\"}", "[-1.5e-3,0,1E9]", "[\"a\"\"b\"]", "{\"a\":}",
    String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
    String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
    String(repeating: "{\"a\":", count: 512) + "1" + String(repeating: "}", count: 512),
    String(repeating: "{\"a\":", count: 513) + "1" + String(repeating: "}", count: 513),
  ]

  @Test(arguments: jsonTable)
  func jsonSyntaxAgreesWithJSONSerializationOnTraps(_ text: String) {
    let bytes = Array(text.utf8)
    #expect(JSONSyntax.isWellFormed(bytes) == Self.acceptedByJSONSerialization(bytes))
  }

  @Test func jsonSyntaxAgreesWithJSONSerializationOnMutations() {
    var random = SeededGenerator(state: 13)
    let seeds = [
      #"{"type":"update","servers":[{"id":"a","cpu":12.5,"tags":["x"],"ok":true,"n":null}]}"#,
      #"[{"a":"\u00e9\n","b":-0.25e+3},[],{},"东京",1e-7]"#,
    ]
    let alphabet = Array(#"{}[],:"\ -+.eE0123456789tfnulrsaux/"#.utf8) + [0x7F, 0xC3, 0xA9]
    var checked = 0
    for seed in seeds {
      for _ in 0..<3000 {
        var bytes = Array(seed.utf8)
        for _ in 0..<Int.random(in: 1...3, using: &random) {
          let position = Int.random(in: 0...bytes.count, using: &random)
          switch Int.random(in: 0..<3, using: &random) {
          case 0 where position < bytes.count: bytes.remove(at: position)
          case 1 where position < bytes.count:
            bytes[position] = alphabet.randomElement(using: &random) ?? 0
          default: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: position)
          }
        }
        // The check is only asked about well-formed UTF-8 (WireJSON tests that first).
        guard String(validating: bytes, as: UTF8.self) != nil else { continue }
        checked += 1
        #expect(
          JSONSyntax.isWellFormed(bytes) == Self.acceptedByJSONSerialization(bytes),
          "input: \(String(decoding: bytes, as: UTF8.self))")
      }
    }
    #expect(checked > 3000)
  }

  @Test func whitespaceMatchesCharacterSetOnEveryScalar() {
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let expected = CharacterSet.whitespacesAndNewlines.contains(scalar)
      if WireText.isWhitespaceOrNewline(scalar) != expected {
        Issue.record("U+\(String(value, radix: 16, uppercase: true)): expected \(expected)")
      }
    }
  }

  @Test(arguments: [
    "", " ", "  https://a.example  ", "\r\n\thttps://a\u{3000}", " \u{301}x ", "x\u{200B}",
    "\u{85}a\u{2029}", "a b", "\u{A0}\u{1680}\u{202F}\u{205F}", "e\u{301} ", "\u{1F600} \n",
    "\r\n", "a\r\n", " \u{FEFF}a",
  ])
  func trimmingMatchesFoundation(_ text: String) {
    #expect(
      WireText.trimmingWhitespaceAndNewlines(text)
        == text.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
