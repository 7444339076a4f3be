// Writing the `full_sync` floats without `String` (`WireJSON.appendFloat` made a
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
  /// The most bytes ``write(_:to:)`` writes: a sign, 17 digits and `.0` for whole values; a
  /// sign, 13 + 14 digits and a point otherwise.
  static let longest = 32

  /// Appends `value` as `WireJSON.appendFloat` would; `false` (nothing appended) when the value
  /// is not one this fast form covers.
  static func append(_ value: Double, to bytes: inout [UInt8]) -> Bool {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: longest) { buffer in
      guard let start = buffer.baseAddress else { return false }
      let count = write(value, to: start)
      bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
      return count > 0
    }
  }

  /// Writes `value` as `WireJSON.appendFloat` would at `out`, which has room for ``longest``
  /// bytes; returns how many it wrote, 0 when the value is not one this fast form covers.
  static func write(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
    let magnitude = value.magnitude
    var count = 0
    if value.sign == .minus {
      out[0] = UInt8(ascii: "-")
      count = 1
    }
    if value == value.rounded(), magnitude < 1e16 {
      // The reference's own rule for whole values: the integer, then `.0`.
      count += writeDigits(UInt64(magnitude), to: out + count)
      out[count] = UInt8(ascii: ".")
      out[count + 1] = UInt8(ascii: "0")
      return count + 2
    }
    // `description` writes plain decimals (no exponent) in this range.
    guard magnitude >= 1e-3, magnitude < 1e13 else { return 0 }
    for fractionDigits in 1...14 {
      let scale = powersOfTen[fractionDigits]
      let scaled = (magnitude * scale).rounded()
      guard scaled < 1e14 else { return 0 }
      guard scaled / scale == magnitude else { continue }
      let digits = UInt64(scaled)
      let unit = UInt64(scale)
      count += writeDigits(digits / unit, to: out + count)
      out[count] = UInt8(ascii: ".")
      count += 1
      // The fraction with its leading zeros: exactly `fractionDigits` digits.
      var fraction = digits % unit
      var index = count + fractionDigits
      while index > count {
        index -= 1
        out[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
        fraction /= 10
      }
      return count + fractionDigits
    }
    return 0
  }

  /// 10⁰ … 10²², each exact in a `Double`.
  static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// Writes the decimal digits of `value` (no sign) at `out`, which has room for 20; returns
  /// how many. (A two-digits-a-step table measured no cheaper here.)
  static func writeDigits(_ value: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
    if value < 10 {
      out[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
      return 1
    }
    var length = 2
    var bound: UInt64 = 100
    while length < 20, value >= bound {
      length += 1
      bound &*= 10
    }
    // Two digits at a time from the pairs table (a digit at a time was about 2 k
    // instructions of each server in a `GET /api/servers`).
    var remaining = value
    var index = length
    while remaining >= 100 {
      index -= 2
      writePair(Int(truncatingIfNeeded: remaining % 100), to: out + index)
      remaining /= 100
    }
    if remaining >= 10 {
      writePair(Int(truncatingIfNeeded: remaining), to: out + index - 2)
    } else {
      out[index - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining)
    }
    return length
  }

  /// Writes `value` (0–99) as two digits.
  @inline(__always)
  static func writePair(_ value: Int, to out: UnsafeMutablePointer<UInt8>) {
    let pair = pairs.utf8Start + value &* 2
    out[0] = pair[0]
    out[1] = pair[1]
  }

  /// `"00"` to `"99"`, two bytes each.
  static let pairs: StaticString = """
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """
}
