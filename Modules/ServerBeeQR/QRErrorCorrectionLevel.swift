/// How much of a QR code may be damaged and still decode (ISO/IEC 18004 §5.3.9).
///
/// Higher levels spend more codewords on error correction, so the same payload needs a larger
/// version. `.medium` is the usual default for screens.
///
/// ```swift
/// let sturdy = try QRCode(text: payload, level: .quartile)
/// print(sturdy.level)  // "Q"
/// ```
package enum QRErrorCorrectionLevel: CaseIterable, Sendable, Hashable, CustomStringConvertible {
  /// About 7 % of the codewords can be restored.
  case low
  /// About 15 % of the codewords can be restored.
  case medium
  /// About 25 % of the codewords can be restored.
  case quartile
  /// About 30 % of the codewords can be restored.
  case high

  /// The position in the rows of ``QRTables`` (L, M, Q, H).
  var tableIndex: Int {
    switch self {
    case .low: 0
    case .medium: 1
    case .quartile: 2
    case .high: 3
    }
  }

  /// The two bits the format information carries for this level (L 01, M 00, Q 11, H 10).
  var formatBits: Int {
    switch self {
    case .low: 0b01
    case .medium: 0b00
    case .quartile: 0b11
    case .high: 0b10
    }
  }

  /// The level's letter: `L`, `M`, `Q` or `H`.
  package var description: String {
    switch self {
    case .low: "L"
    case .medium: "M"
    case .quartile: "Q"
    case .high: "H"
    }
  }
}
