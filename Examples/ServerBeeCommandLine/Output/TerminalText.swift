/// Makes text from a server safe to print on a terminal: a hostile server must not be able to
/// clear or retitle the terminal, move the cursor, or reorder a line with bidirectional
/// overrides through a name or an error message.
///
/// ```swift
/// TerminalText.safe("web\u{1B}]0;pwned\u{07}-1")  // "web?]0;pwned?-1"
/// ```
enum TerminalText {
  /// `text` with every control character (C0 including ESC, DEL, C1) and every bidirectional
  /// override or isolate replaced by `?`; tabs and line breaks become spaces.
  static func safe(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A, 0x0D: out.append(" ")
      case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
        out.append("?")
      default: out.append(scalar)
      }
    }
    return String(out)
  }
}
