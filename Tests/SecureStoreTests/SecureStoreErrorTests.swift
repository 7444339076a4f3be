import ServerBeeModels
import Testing

@testable import SecureStore

@Suite struct SecureStoreErrorTests {
  @Test func descriptionNamesTheModuleAndCode() {
    let error = SecureStoreError(.tamperedValue, "example")
    #expect(error.description == "SecureStore.tampered_value: example")
  }

  @Test func everyFailureHasItsOwnCode() {
    let codes: [SecureStoreError.Code] = [
      .invalidKey, .valueTooLarge, .tamperedValue, .wrongMasterKey, .invalidMasterKey, .readOnly,
      .diskFull, .busy, .corruptDatabase, .unsupportedFormat, .encodingFailed, .decodingFailed,
      .unavailable, .storageFailed,
    ]
    #expect(Set(codes.map(\.rawValue)).count == codes.count)
  }
}
