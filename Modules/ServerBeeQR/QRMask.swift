/// One of the eight data mask patterns of ISO/IEC 18004 §7.8.2.
///
/// A mask flips the data modules where its condition holds, to avoid patterns that confuse
/// readers. ``QRCode`` normally tries all eight and keeps the one with the lowest penalty; tests
/// may force one.
///
/// ```swift
/// let mask = try #require(QRMask(rawValue: 3))
/// let code = try QRCode(text: payload, mask: mask)  // skips the penalty search
/// ```
package struct QRMask: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// The mask reference, 0...7.
  package let rawValue: Int

  /// Creates a mask from its reference, or `nil` outside 0...7.
  /// - Parameter rawValue: The mask reference written in the format information.
  package init?(rawValue: Int) {
    guard (0...7).contains(rawValue) else { return nil }
    self.rawValue = rawValue
  }

  /// The eight masks in reference order.
  package static let allCases: [QRMask] = (0...7).compactMap { QRMask(rawValue: $0) }

  /// `mask N`.
  package var description: String { "mask \(rawValue)" }

  /// Whether the module at row `row`, column `column` is flipped by this mask.
  func flips(row: Int, column: Int) -> Bool {
    switch rawValue {
    case 0: return (row + column) % 2 == 0
    case 1: return row % 2 == 0
    case 2: return column % 3 == 0
    case 3: return (row + column) % 3 == 0
    case 4: return (row / 2 + column / 3) % 2 == 0
    case 5: return (row * column) % 2 + (row * column) % 3 == 0
    case 6: return ((row * column) % 2 + (row * column) % 3) % 2 == 0
    default: return ((row + column) % 2 + (row * column) % 3) % 2 == 0
    }
  }
}
