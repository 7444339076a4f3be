import Foundation
import Testing

@testable import ServerBeeModels

/// Every module's error answers the one protocol with a readable `localizedDescription`.
@Suite struct ErrorProtocolTests {
  @Test func aModuleErrorIsCaughtAsTheSharedProtocolWithASentence() {
    let thrown: any Error = ServerBeeModelsError(
      .missingField, "the server URL has no host", httpStatus: 400)
    guard let error = thrown as? any ServerBeeErrorProtocol else {
      Issue.record("not a ServerBeeErrorProtocol")
      return
    }
    #expect(error.domainName == "ServerBeeModels")
    #expect(error.codeName == "missing_field")
    #expect(error.httpStatus == 400)
    #expect(thrown.localizedDescription == "The server URL has no host (HTTP 400).")
    #expect(!thrown.localizedDescription.contains("operation could not be completed"))
  }
}
