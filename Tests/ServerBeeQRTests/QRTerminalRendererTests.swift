import Testing

@testable import ServerBeeQR

@Suite struct QRTerminalRendererTests {
  @Test(arguments: [false, true])
  func textDrawsEveryModuleAndTheQuietZone(inverted: Bool) throws {
    let code = try QRCode(text: QRTestPayloads.pairing)
    let text = QRTerminalRenderer(inverted: inverted).render(code)
    let grid = try #require(QRTerminalGrid(text: text))
    let width = code.size + 8
    #expect(grid.width == width)
    #expect(text.split(separator: "\n").count == (width + 1) / 2)
    for row in 0..<width {
      for column in 0..<width {
        let inside = (4..<(code.size + 4)).contains(row) && (4..<(code.size + 4)).contains(column)
        let dark = inside && code.isDark(row: row - 4, column: column - 4)
        #expect(grid.isInked(row: row, column: column) == (dark == inverted), "\(row),\(column)")
      }
    }
    // The spare lower half of the last line is never painted.
    #expect((0..<width).allSatisfy { !grid.isInked(row: width, column: $0) })
  }

  @Test func defaultInkPaintsTheQuietZone() throws {
    let code = try QRCode(text: "quiet")
    let lines = QRTerminalRenderer().render(code).split(separator: "\n")
    #expect(lines.first.map { $0.allSatisfy { $0 == "█" } } == true)
    let inverted = QRTerminalRenderer(inverted: true).render(code).split(separator: "\n")
    #expect(inverted.first.map { $0.allSatisfy { $0 == " " } } == true)
  }

  @Test func quietZoneIsClamped() throws {
    let code = try QRCode(text: "clamp")
    #expect(QRTerminalRenderer(quietZone: -3).quietZone == 0)
    #expect(QRTerminalRenderer(quietZone: 99).quietZone == 16)
    let grid = try #require(QRTerminalGrid(text: QRTerminalRenderer(quietZone: 0).render(code)))
    #expect(grid.width == code.size)
  }
}
