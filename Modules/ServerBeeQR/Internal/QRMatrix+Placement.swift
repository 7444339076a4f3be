extension QRMatrix {
  /// Places the final codeword sequence in the data modules (ISO/IEC 18004 §7.7.3).
  ///
  /// Codewords go most significant bit first, in two-module-wide columns that start at the
  /// bottom-right corner and zigzag up and down towards the left, skipping the vertical timing
  /// column and every function module. Modules left after the last bit (the remainder bits)
  /// stay light.
  mutating func place(codewords: [UInt8]) {
    let bitCount = codewords.count * 8
    var bitIndex = 0
    var right = size - 1
    var upward = true
    while right >= 1 {
      if right == 6 { right = 5 }  // column 6 is the vertical timing pattern
      for step in 0..<size {
        let row = upward ? size - 1 - step : step
        for column in [right, right - 1] where !isFunctionModule(row: row, column: column) {
          guard bitIndex < bitCount else { continue }
          let dark = (codewords[bitIndex >> 3] >> (7 - UInt8(bitIndex & 7))) & 1 != 0
          setData(row: row, column: column, dark: dark)
          bitIndex += 1
        }
      }
      upward.toggle()
      right -= 2
    }
  }
}
