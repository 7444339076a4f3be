import ServerBeeModels
import Testing

@testable import PushEnvelopeCrypto

@Suite struct PushEnvelopeCryptoErrorTests {
  @Test func descriptionNamesTheModuleAndCode() {
    let error = PushEnvelopeCryptoError(.rejected, "example")
    #expect(error.description == "PushEnvelopeCrypto.rejected: example")
  }
}
