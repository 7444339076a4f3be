import Foundation
import ServerBeeModels
import Testing

@testable import ServerBeeCommandLine

/// Text from a server never reaches the terminal with control characters: a hostile server
/// cannot clear, retitle or reorder the user's terminal through a name or an error message.
@Suite struct TerminalTextTests {
  static let hostile = "web\u{1B}]0;pwned\u{07}\u{1B}[2J-1\u{202E}gnp.exe\u{9B}31m"

  @Test func controlCharactersAndBidiOverridesAreReplaced() {
    let safe = TerminalText.safe(Self.hostile)
    #expect(safe == "web?]0;pwned??[2J-1?gnp.exe?31m")
    #expect(!safe.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    #expect(TerminalText.safe("a\tb\nc") == "a b c")
    #expect(TerminalText.safe("温度 ok") == "温度 ok")
  }

  @Test func aServerErrorMessageIsPrintedSafely() {
    let body = Data(#"{"error":{"code":"BAD_REQUEST","message":"\u001b]0;pwned\u0007 nope"}}"#.utf8)
    let line = ErrorLine.text(for: APIFailure(status: 400, body: body))
    #expect(!line.contains("\u{1B}") && !line.contains("\u{07}"))
  }

  @Test func tableCellsFromTheServerAreSafe() {
    var table = TextTable(columns: [.left("NAME")])
    table.append([Self.hostile])
    #expect(!table.render().contains("\u{1B}"))
  }
}
