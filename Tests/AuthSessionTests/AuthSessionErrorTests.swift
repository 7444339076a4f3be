import ServerBeeModels
import Testing

@testable import AuthSession

@Suite struct AuthSessionErrorTests {
  @Test func descriptionNamesTheModuleAndCode() {
    let error = AuthSessionError(.notImplemented, "example")
    #expect(error.description == "AuthSession.not_implemented: example")
  }
}
