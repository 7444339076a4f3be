/// The bytes `"key":` of one object key, compared with a frame eight bytes at a time: how the
/// fast reader recognises the key it expects next without scanning it as a string first
/// (``JSONScanner/consumeKey(_:)``).
///
/// A pattern holds at most 32 bytes (keys of up to 29 bytes; the live stream's longest is 24)
/// and only keys of plain ASCII without `"`, `\` or control characters, so that matching the
/// bytes means exactly what reading the key as a JSON string would.
///
/// ```swift
/// let cpu = KeyPattern("cpu")  // matches `"cpu":`
/// ```
struct KeyPattern {
  private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
  /// The bytes of the last word that belong to the pattern.
  private var lastMask: UInt64 = 0
  private var wordCount = 0
  /// The pattern's bytes: the key in quotes, and the colon.
  private(set) var length = 0

  /// How many bytes a comparison loads (whole words): the bytes that must be there.
  var readLength: Int { wordCount * 8 }

  /// Makes the pattern of `key`; traps for a key it cannot hold (a programming error: keys
  /// come from the code's own tables, and tests build every table).
  init(_ key: StaticString) {
    var bytes: [UInt8] = []
    key.withUTF8Buffer { bytes = Array($0) }
    precondition(
      bytes.count <= 29
        && bytes.allSatisfy { $0 >= 0x20 && $0 < 0x80 && $0 != 0x22 && $0 != 0x5C },
      "\(key): not a key a pattern can hold")
    bytes = [UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\""), UInt8(ascii: ":")]
    length = bytes.count
    wordCount = (bytes.count + 7) / 8
    var packed: [UInt64] = [0, 0, 0, 0]
    for (i, byte) in bytes.enumerated() {
      packed[i / 8] |= UInt64(byte) << UInt64(8 * (i % 8))
    }
    words = (packed[0], packed[1], packed[2], packed[3])
    let tail = bytes.count % 8
    lastMask = tail == 0 ? ~0 : (1 << UInt64(8 * tail)) - 1
  }

  /// Whether the bytes at `p` (``readLength`` of them readable) start with the pattern.
  @inline(__always) func matches(_ p: UnsafeRawPointer) -> Bool {
    let first = p.loadUnaligned(as: UInt64.self) ^ words.0
    switch wordCount {
    case 1: return first & lastMask == 0
    case 2:
      return first | ((p.loadUnaligned(fromByteOffset: 8, as: UInt64.self) ^ words.1) & lastMask)
        == 0
    case 3:
      return first | (p.loadUnaligned(fromByteOffset: 8, as: UInt64.self) ^ words.1)
        | ((p.loadUnaligned(fromByteOffset: 16, as: UInt64.self) ^ words.2) & lastMask) == 0
    default:
      return first | (p.loadUnaligned(fromByteOffset: 8, as: UInt64.self) ^ words.1)
        | (p.loadUnaligned(fromByteOffset: 16, as: UInt64.self) ^ words.2)
        | ((p.loadUnaligned(fromByteOffset: 24, as: UInt64.self) ^ words.3) & lastMask) == 0
    }
  }
}
