/// HPACK integers with an N-bit prefix (RFC 7541 §5.1).
enum HPACKInteger {
  /// Appends `value` with a `prefixBits`-bit prefix; `flags` are the bits above the prefix.
  static func encode(_ value: Int, prefixBits: Int, flags: UInt8, into output: inout [UInt8]) {
    let limit = (1 << prefixBits) - 1
    if value < limit {
      output.append(flags | UInt8(value))
      return
    }
    output.append(flags | UInt8(limit))
    var rest = value - limit
    while rest >= 128 {
      output.append(UInt8(rest % 128) | 0x80)
      rest /= 128
    }
    output.append(UInt8(rest))
  }

  /// Decodes an integer whose prefix is in `bytes[offset]`, advancing `offset` past it.
  /// - Throws: `truncated`, or `integerOverflow` past 2^28 (more than any table or string here).
  static func decode(
    _ bytes: [UInt8], at offset: inout Int, prefixBits: Int
  ) throws(HPACKError) -> Int {
    guard offset < bytes.count else { throw .truncated }
    let limit = (1 << prefixBits) - 1
    var value = Int(bytes[offset]) & limit
    offset += 1
    guard value == limit else { return value }
    var shift = 0
    while true {
      guard offset < bytes.count else { throw .truncated }
      let byte = bytes[offset]
      offset += 1
      value += Int(byte & 0x7f) << shift
      shift += 7
      guard value < 1 << 28 else { throw .integerOverflow }
      if byte & 0x80 == 0 { return value }
    }
  }
}
