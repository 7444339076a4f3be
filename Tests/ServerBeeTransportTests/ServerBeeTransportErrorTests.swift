import ServerBeeModels
import Testing

@testable import ServerBeeTransport

@Suite struct ServerBeeTransportErrorTests {
  @Test func descriptionNamesTheModuleAndCode() {
    let error = ServerBeeTransportError(.connectionFailed, "example")
    #expect(error.description == "ServerBeeTransport.connection_failed: example")
  }
}
