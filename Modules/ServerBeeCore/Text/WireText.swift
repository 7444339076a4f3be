/// Text helpers that used to come from Foundation's `NSString` bridge (`trimmingCharacters`,
/// `CharacterSet`), written out so ServerBeeModels needs only FoundationEssentials: an extension
/// or widget process then never loads Foundation and ICU (about 7 MB of resident memory).
package enum WireText {
  /// Removes leading and trailing white space and line breaks, scalar by scalar, exactly as
  /// `trimmingCharacters(in: .whitespacesAndNewlines)` does (a combining mark after a removed
  /// space stays).
  package static func trimmingWhitespaceAndNewlines(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { !isWhitespaceOrNewline($0) }),
      let last = scalars.lastIndex(where: { !isWhitespaceOrNewline($0) })
    else { return "" }
    return String(Substring(scalars[first...last]))
  }

  /// Foundation's `CharacterSet.whitespacesAndNewlines`: general categories Zs, Zl and Zp,
  /// U+0009…U+000D, U+0085, and U+200B (still listed there, although Unicode moved it to Cf).
  package static func isWhitespaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F,
      0x3000:
      return true
    default:
      return false
    }
  }

  /// A hex digit, `:` or `.`: what may stand inside the brackets of an IPv6 literal.
  package static func isIPv6LiteralScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "0"..."9", "a"..."f", "A"..."F", ":", ".": return true
    default: return false
    }
  }

  /// An ASCII letter or digit, `-`, `.` or `_`: what a host name or IPv4 address may hold.
  package static func isHostNameScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "0"..."9", "a"..."z", "A"..."Z", "-", ".", "_": return true
    default: return false
    }
  }
}
