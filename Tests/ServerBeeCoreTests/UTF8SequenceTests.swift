import Testing

@testable import ServerBeeCore

/// The one UTF-8 table (Unicode table 3-7) agrees with the standard library on every edge.
@Suite struct UTF8SequenceTests {
  @Test func utf8ValidationMatchesTheStandardLibrary() {
    var samples: [[UInt8]] = [
      [], Array("plain".utf8), Array("东京 😀 é".utf8), [0x80], [0xC0, 0xAF], [0xC1, 0xBF],
      [0xC2, 0x80], [0xE0, 0x80, 0x80], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF],
      [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80],
      [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF],
      [0xE4, 0xB8], [0xF0, 0x9F, 0x98], [0x41, 0xE4, 0xB8, 0x41],
    ]
    // Every two-byte sequence, and lead bytes with every second byte.
    for first in 0...255 {
      samples.append([UInt8(first), 0x80])
      samples.append([UInt8(first), 0xBF, 0x80])
      samples.append([UInt8(first), 0x90, 0x80, 0x80])
    }
    for sample in samples {
      let valid = sample.withUnsafeBufferPointer { UTF8Sequence.isWellFormed($0) }
      #expect(valid == (String(validating: sample, as: UTF8.self) != nil), "\(sample)")
    }
  }

  @Test func aSequenceLengthIsCountedFromItsLeadByte() {
    let text = Array("a东😀é".utf8)
    text.withUnsafeBufferPointer { bytes in
      #expect(UTF8Sequence.length(in: bytes, at: 1) == 3)
      #expect(UTF8Sequence.length(in: bytes, at: 4) == 4)
      #expect(UTF8Sequence.length(in: bytes, at: 8) == 2)
      #expect(UTF8Sequence.length(in: bytes, at: 2) == nil)  // a continuation byte
    }
    [UInt8]([0xF0, 0x9F, 0x98]).withUnsafeBufferPointer {
      #expect(UTF8Sequence.length(in: $0, at: 0) == nil)  // cut off
    }
  }
}
