import ServerBeeModels
import Testing

@testable import ServerBeeCommandLine

@Suite struct CommandLineErrorTests {
  @Test func descriptionNamesTheCommandAndCode() {
    #expect(
      CommandLineError(.usage, "unknown option --x").description
        == "serverbee.usage: unknown option --x")
  }
}
