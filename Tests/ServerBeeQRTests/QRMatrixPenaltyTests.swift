import Testing

@testable import ServerBeeQR

@Suite struct QRMatrixPenaltyTests {
  @Test func allLightGridScoresRunsBlocksAndBalance() {
    // N1: 10 lines with a run of 5 → 30. N2: 16 blocks → 48. N3: none. N4: 0 % dark → 100.
    #expect(QRMatrix.penalty(modules: [Bool](repeating: false, count: 25), size: 5) == 178)
  }

  @Test func finderLikeRowScoresBothDirections() {
    // 7×7, only row 0 = 1011101. N1: 6 light rows of 7 → 30, 5 columns with 6 light → 20,
    // 2 light columns → 10. N2: 30 light blocks → 90. N3: row 0 with the quiet zone matches
    // light-then-finder and finder-then-light → 80. N4: 5/49 dark → 7 steps → 70.
    var modules = [Bool](repeating: false, count: 49)
    for (column, dark) in [true, false, true, true, true, false, true].enumerated() {
      modules[column] = dark
    }
    #expect(QRMatrix.penalty(modules: modules, size: 7) == 300)
  }

  @Test func runsLongerThanFiveCostOneMorePerModule() {
    // 6×6 checker-free grid: rows alternate all-dark / all-light. Each row: run 6 → 4 (×6 = 24).
    // Columns alternate colours → no runs, no finder patterns. N2: none (rows differ). N4: 50 %.
    var modules: [Bool] = []
    for row in 0..<6 { modules += [Bool](repeating: row % 2 == 0, count: 6) }
    #expect(QRMatrix.penalty(modules: modules, size: 6) == 24)
  }
}
