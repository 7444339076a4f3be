/// Percent-encoding of path segments and query components (RFC 3986), byte by byte over UTF-8.
enum PercentEncoding {
  /// Unreserved characters plus `:` and `@`, which a path segment may hold as they are (legacy
  /// alert keys are `rule:server`). Everything else, `/`, `?`, `#` and `%` included, is
  /// encoded, so a value can never change the route. A segment of only dots is encoded whole:
  /// URL resolution would read it as "this" or "parent" directory.
  static func segment(_ text: String) -> String {
    if !text.isEmpty, text.utf8.allSatisfy({ $0 == UInt8(ascii: ".") }) {
      return String(repeating: "%2E", count: text.utf8.count)
    }
    return encode(
      text, keeping: { isUnreserved($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "@") })
  }

  /// Unreserved characters plus `:`. `+` is encoded: unencoded, a query parser reads it as a
  /// space (a `+00:00` cursor would arrive as ` 00:00`).
  static func queryComponent(_ text: String) -> String {
    encode(text, keeping: { isUnreserved($0) || $0 == UInt8(ascii: ":") })
  }

  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      return true
    default: return false
    }
  }

  private static let hexDigits = Array("0123456789ABCDEF".utf8)

  private static func encode(_ text: String, keeping keep: (UInt8) -> Bool) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      if keep(byte) {
        bytes.append(byte)
      } else {
        bytes.append(UInt8(ascii: "%"))
        bytes.append(hexDigits[Int(byte >> 4)])
        bytes.append(hexDigits[Int(byte & 0x0F)])
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
