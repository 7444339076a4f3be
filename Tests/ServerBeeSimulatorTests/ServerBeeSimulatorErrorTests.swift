import ServerBeeModels
import Testing

@testable import ServerBeeSimulator

@Suite struct ServerBeeSimulatorErrorTests {
  @Test func descriptionNamesTheModuleAndCode() {
    let error = ServerBeeSimulatorError(.notImplemented, "example")
    #expect(error.description == "ServerBeeSimulator.not_implemented: example")
  }
}
