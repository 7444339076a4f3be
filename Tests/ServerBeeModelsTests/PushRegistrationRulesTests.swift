import Foundation
import ServerBeeModels
import Testing

/// `PushRegistrationRules.isLowercaseUUID`, now a byte check, judged against its former
/// definition on Foundation's `UUID`: parsed, printed and lowercased back to the same text.
@Suite struct PushRegistrationRulesTests {
  static func foundationJudges(_ text: String) -> Bool {
    guard let uuid = UUID(uuidString: text) else { return false }
    return uuid.uuidString.lowercased() == text
  }

  static let cases = [
    "3f2c1a4e-9b7d-4c11-8e2f-0a1b2c3d4e5f", "3F2C1A4E-9B7D-4C11-8E2F-0A1B2C3D4E5F",
    "3f2c1a4e-9b7d-4c11-8e2f-0a1b2c3d4e5", "3f2c1a4e-9b7d-4c11-8e2f-0a1b2c3d4e5f0",
    "3f2c1a4e9b7d-4c11-8e2f-0a1b2c3d4e5f-", "3f2c1a4e-9b7d-4c11-8e2f_0a1b2c3d4e5f",
    "{3f2c1a4e-9b7d-4c11-8e2f-0a1b2c3d4e5f}", "3f2c1a4e9b7d4c118e2f0a1b2c3d4e5f",
    "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
    "3f2c1a4e-9b7d-4c11-8e2f-0a1b2c3d4e5g", "3f2c1a4é-9b7d-4c11-8e2f-0a1b2c3d4e5f", "",
    " 3f2c1a4e-9b7d-4c11-8e2f-0a1b2c3d4e5f", "3f2c1a4e-9b7d-4c11-8e2f-0a1b2c3d4e5f\n",
  ]

  @Test(arguments: cases) func agreesWithFoundationsUUID(text: String) {
    #expect(PushRegistrationRules.isLowercaseUUID(text) == Self.foundationJudges(text))
  }

  /// Every one-byte change of a valid UUID, through the printable ASCII range.
  @Test func agreesOnEverySingleByteChange() {
    let valid = Array("3f2c1a4e-9b7d-4c11-8e2f-0a1b2c3d4e5f".utf8)
    for index in valid.indices {
      for byte in UInt8(32)...UInt8(126) {
        var changed = valid
        changed[index] = byte
        let text = String(decoding: changed, as: UTF8.self)
        #expect(
          PushRegistrationRules.isLowercaseUUID(text) == Self.foundationJudges(text),
          "\(text)")
      }
    }
  }
}
