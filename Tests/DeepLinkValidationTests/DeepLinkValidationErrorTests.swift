import ServerBeeModels
import Testing

@testable import DeepLinkValidation

@Suite struct DeepLinkValidationErrorTests {
  @Test func descriptionNamesTheModuleAndCode() {
    let error = DeepLinkValidationError(.notImplemented, "example")
    #expect(error.description == "DeepLinkValidation.not_implemented: example")
  }
}
