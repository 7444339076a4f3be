import Foundation
import ServerBeeTestHarness
import Testing

@testable import ServerBeeCommandLine

/// Colour only on a terminal, never with `NO_COLOR` (https://no-color.org).
@Suite(.timeLimit(.minutes(3))) struct ColorTests {
  @Test(
    arguments: [
      (true, [:], true), (true, ["NO_COLOR": "1"], false), (true, ["NO_COLOR": ""], true),
      (false, [:], false), (false, ["NO_COLOR": "1"], false),
    ] as [(Bool, [String: String], Bool)])
  func colourNeedsATerminalAndNoNoColor(
    terminal: Bool, environment: [String: String], colors: Bool
  ) {
    #expect(Console.colors(stdoutIsTerminal: terminal, environment: environment) == colors)
    let console = Console(
      stdoutIsTerminal: terminal, stderrIsTerminal: terminal, stdinIsTerminal: terminal,
      json: false, colors: colors)
    #expect(console.bold("==> 1. x") == (colors ? "\u{1B}[1m==> 1. x\u{1B}[0m" : "==> 1. x"))
  }

  @Test func theDemoOnATerminalIsBoldUnlessNoColorIsSet() async throws {
    let temporary = try TemporaryDirectory()
    let executable = try BuiltExecutables.url("serverbee").path
    let home = temporary.url.appendingPathComponent("home").path
    let command = "'\(executable)' --home '\(home)' demo --duration 1"
    let (status, plain) = try await PseudoTerminal.run("NO_COLOR=1 " + command, answers: [])
    #expect(status == 0, "\(plain)")
    #expect(plain.contains("==> 1. "))
    #expect(!plain.contains("\u{1B}[1m"))
    // `env -u`: the test runner's own environment may carry NO_COLOR.
    let (again, coloured) = try await PseudoTerminal.run(
      "rm -rf '\(home)'; env -u NO_COLOR " + command, answers: [])
    #expect(again == 0, "\(coloured)")
    #expect(coloured.contains("\u{1B}[1m==> 1. "))
  }
}
