import ServerBeeModels
import Testing

@testable import ServerBeeCommandLine

@Suite struct RecoverChoiceTests {
  private let candidates = [
    RecoveryCandidate(
      mobileSessionID: "5f0c-old", deviceName: "Ada's iPhone",
      createdAt: RFC3339Timestamp(secondsSince1970: 1_800_000_000),
      lastUsedAt: RFC3339Timestamp(secondsSince1970: 1_800_000_600)),
    RecoveryCandidate(
      mobileSessionID: "9a1b-new", deviceName: "serverbee CLI on build-1",
      createdAt: RFC3339Timestamp(secondsSince1970: 1_800_001_000),
      lastUsedAt: RFC3339Timestamp(secondsSince1970: 1_800_001_000)),
  ]
  private let script = Console(
    stdoutIsTerminal: false, stderrIsTerminal: false, stdinIsTerminal: false, json: false)

  @Test(arguments: [
    RecoveryOutcome.ok, .alreadyAbsent, RecoveryOutcome(rawValue: "gone_elsewhere"),
  ])
  func outcomesAreWordsNotWireValues(outcome: RecoveryOutcome) {
    let sentence = RecoverCommand.describe(outcome)
    #expect(!sentence.contains("_"))
    #expect(!sentence.contains(outcome.rawValue))
  }

  @Test func candidatesAreNumberedWithDeviceAndTimes() {
    let lines = Tables.candidates(candidates).split(separator: "\n")
    #expect(lines.count == 3)
    #expect(
      lines[1].hasPrefix(
        "1  Ada's iPhone" + String(repeating: " ", count: 14) + "5f0c-old  2027-01-15 08:00:00Z"))
    #expect(lines[2].hasPrefix("2  serverbee CLI on build-1  9a1b-new"))
  }

  @Test func aGivenSelectionIsUsedAsItIs() throws {
    #expect(try RecoverCommand.choose(candidates, given: "9a1b-new", console: script) == "9a1b-new")
  }

  @Test func withoutATerminalTheUserIsToldToPassSelect() {
    #expect {
      _ = try RecoverCommand.choose(candidates, given: nil, console: script)
    } throws: { error in
      let error = error as? CommandLineError
      return error?.code == .usage
        && error?.message == "choose a session: run again with --select ID"
    }
  }
}
