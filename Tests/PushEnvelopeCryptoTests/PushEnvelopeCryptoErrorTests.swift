import ServerBeeModels
import Testing

@testable import PushEnvelopeCrypto

@Suite struct PushEnvelopeCryptoErrorTests {
  @Test func descriptionNamesTheModuleAndCode() {
    let error = PushEnvelopeCryptoError(.expired, "example")
    #expect(error.description == "PushEnvelopeCrypto.expired: example")
  }
}
