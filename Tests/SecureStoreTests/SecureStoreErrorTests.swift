import ServerBeeModels
import Testing

@testable import SecureStore

@Suite struct SecureStoreErrorTests {
  @Test func descriptionNamesTheModuleAndCode() {
    let error = SecureStoreError(.storageFailed, "example")
    #expect(error.description == "SecureStore.storage_failed: example")
  }
}
