import Foundation
import Testing

@testable import ServerBeeModels

/// The written-out readers of `AlertKey(parsingV1:)` against the Foundation code they replace.
@Suite struct AlertKeyReaderParityTests {
  static let arrays: [String] = [
    #"["rule-1","server-1","203.0.113.7","2033-05-18T03:33:20+00:00"]"#,
    #"["r","s","","t"]"#, #"["东京","😀","é",""]"#, "[]", #"[""]"#,
    #"["a","b","c","d",]"#, #"["a", "b","c","d"]"#, #" ["a","b","c","d"]"#,
    #"["a","b","c","d"] "#, "\u{FEFF}" + #"["a","b","c","d"]"#, #"["a\"b","c","d","e"]"#,
    #"["a\u0062","c","d","e"]"#, #"["\ud83d\ude00","c","d","e"]"#, #"["\ud83d","c","d","e"]"#,
    #"["a","b","c",1]"#, #"["a","b","c",null]"#, #"["a","b","c",["d"]]"#, #"{"a":"b"}"#,
    #"["a","b","c","d""#, #"["a","b","c","d"]]"#, #"["a""b"]"#, #"["a",,"b"]"#, "[", "",
    "[\"a\u{01}\",\"b\",\"c\",\"d\"]", #"["a","b","c","d"]x"#,
  ]

  @Test func plainArrayReaderAgreesWithJSONDecoder() {
    var samples = Self.arrays.map { Data($0.utf8) }
    for bad: [UInt8] in [[0xFF], [0xE4, 0xB8], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] {
      samples.append(Data([UInt8(ascii: "["), UInt8(ascii: "\"")] + bad + Array("\"]".utf8)))
    }
    var decided = 0
    for sample in samples {
      let reference = AlertKey.decodedStringArray(sample)
      if let read = AlertKey.plainStringArray(sample) {
        decided += 1
        #expect(read == reference, "\(Array(sample))")
      }
    }
    #expect(decided >= 4)
  }
}
