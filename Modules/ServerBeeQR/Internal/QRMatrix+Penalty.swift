extension QRMatrix {
  /// The mask penalty score of ISO/IEC 18004 §7.8.3; the encoder keeps the mask with the lowest.
  ///
  /// - N1: each run of 5 or more same-coloured modules in a row or column scores 3, plus 1 per
  ///   module beyond 5.
  /// - N2: each 2×2 block of one colour scores 3 (overlapping blocks all count).
  /// - N3: each 1:1:3:1:1 finder-like run with 4 light modules on either side scores 40; the
  ///   light quiet zone outside the symbol counts as light.
  /// - N4: 10 for every full 5 % the dark share deviates from 50 %.
  var penalty: Int { Self.penalty(modules: modules, size: size) }

  /// The penalty of any square grid of `size`×`size` modules given row by row (tests use
  /// hand-made grids).
  static func penalty(modules: [Bool], size: Int) -> Int {
    var score = 0
    for index in 0..<size {
      score += linePenalty(modules, size: size, start: index * size, step: 1)  // row `index`
      score += linePenalty(modules, size: size, start: index, step: size)  // column `index`
    }
    for row in 0..<(size - 1) {
      for column in 0..<(size - 1) {
        let corner = row * size + column
        let colour = modules[corner]
        if modules[corner + 1] == colour && modules[corner + size] == colour
          && modules[corner + size + 1] == colour
        {
          score += 3
        }
      }
    }
    var dark = 0
    for module in modules where module { dark += 1 }
    let total = size * size
    // |dark/total − 1/2| in whole 5 % steps, in integers: |20·dark − 10·total| / total.
    score += 10 * (abs(20 * dark - 10 * total) / total)
    return score
  }

  /// N1 and N3 for one row or column, read straight from `modules` (this runs 8 times per symbol
  /// over up to 177 × 177 modules, so it avoids building arrays).
  private static func linePenalty(_ modules: [Bool], size: Int, start: Int, step: Int) -> Int {
    // 1:1:3:1:1 dark-light pattern preceded or followed by 4 light modules, 11 bits, first read
    // module in the highest bit.
    let lightThenFinder = 0b000_0101_1101
    let finderThenLight = 0b101_1101_0000
    var score = 0
    var runLength = 0
    var previous = false
    var window = 0
    // Positions −4..<0 and size..<size+4 are the light quiet zone.
    for position in -4..<(size + 4) {
      let inside = position >= 0 && position < size
      let dark = inside && modules[start + position * step]
      window = (window << 1 | (dark ? 1 : 0)) & 0x7FF
      if position >= 6 && (window == lightThenFinder || window == finderThenLight) {
        score += 40
      }
      guard inside else { continue }
      if position > 0 && dark == previous {
        runLength += 1
      } else {
        if runLength >= 5 { score += runLength - 2 }
        runLength = 1
        previous = dark
      }
    }
    if runLength >= 5 { score += runLength - 2 }
    return score
  }
}
