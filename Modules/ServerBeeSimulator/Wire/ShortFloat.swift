// Writing the `full_sync` floats without `String` (issue 24: `WireJSON.appendFloat` made a
// `String` per float, through `description`, about 5.6 M of a 61 M-instruction `full_sync`).

/// The wire form of the floats the simulator writes (agent CPU and load figures with a few
/// decimals), byte-identical to `WireJSON.appendFloat` (serde_json style: shortest round-trip
/// digits, whole values with `.0`), found without making a `String`.
///
/// Why it is exact: a decimal `n / 10^k` with `n < 2^53` and `k ≤ 22` parses to
/// `Double(n) / 10^k`, one correctly rounded division of two exact values, so that comparison
/// proves the decimal reads back as the value. Trying `k = 1, 2, …` finds the one with the
/// fewest digits; with at most 14 significant digits no other decimal of as few digits lies
/// within the value's rounding interval (half an ulp, under 1.2 × 10⁻¹⁶ of the value), so it is
/// the shortest round-trip form that `description` prints. Anything else (other magnitudes,
/// more digits, non-finite values) is left to `WireJSON.appendFloat` (`WireWriterTests`
/// compares both on random values).
enum ShortFloat {
  /// Appends `value` as `WireJSON.appendFloat` would; `false` (nothing appended) when the value
  /// is not one this fast form covers.
  static func append(_ value: Double, to bytes: inout [UInt8]) -> Bool {
    let magnitude = value.magnitude
    if value == value.rounded(), magnitude < 1e16 {
      // The reference's own rule for whole values: the integer, then `.0`.
      if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
      appendDigits(UInt64(magnitude), to: &bytes)
      bytes.append(UInt8(ascii: "."))
      bytes.append(UInt8(ascii: "0"))
      return true
    }
    // `description` writes plain decimals (no exponent) in this range.
    guard magnitude >= 1e-3, magnitude < 1e13 else { return false }
    for fractionDigits in 1...14 {
      let scale = powersOfTen[fractionDigits]
      let scaled = (magnitude * scale).rounded()
      guard scaled < 1e14 else { return false }
      guard scaled / scale == magnitude else { continue }
      let digits = UInt64(scaled)
      let unit = UInt64(scale)
      if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
      appendDigits(digits / unit, to: &bytes)
      bytes.append(UInt8(ascii: "."))
      var fraction = digits % unit
      var place = unit / 10
      while place > 0 {
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / place))
        fraction %= place
        place /= 10
      }
      return true
    }
    return false
  }

  /// 10⁰ … 10²², each exact in a `Double`.
  static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// Decimal digits of `value`, no sign, no `String`.
  static func appendDigits(_ value: UInt64, to bytes: inout [UInt8]) {
    var remaining = value
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
    withUnsafeMutableBytes(of: &digits) { raw in
      // Typed, so the append below is one copy (a raw slice was appended byte by byte).
      let buffer = raw.bindMemory(to: UInt8.self)
      var index = buffer.count
      repeat {
        index -= 1
        buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
        remaining /= 10
      } while remaining > 0
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index...]))
    }
  }
}
