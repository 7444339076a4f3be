import ServerBeeModels
import Testing

@testable import RealtimeStream

@Suite struct RealtimeStreamErrorTests {
  @Test func descriptionNamesTheModuleAndCode() {
    let error = RealtimeStreamError(.notImplemented, "example")
    #expect(error.description == "RealtimeStream.not_implemented: example")
  }
}
