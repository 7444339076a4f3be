import Foundation
import ServerBeeCore
import ServerBeeModels
import Testing

@testable import PushEnvelopeCrypto

/// The written-out helpers of the extension step against the Foundation or WireJSON code they
/// replace: same answers on valid and hostile input.
@Suite struct EncodingParityTests {
  @Test(arguments: [
    "0f8e7d6c-5b4a-4938-8271-6a5b4c3d2e1f", "0F8E7D6C-5B4A-4938-8271-6A5B4C3D2E1F",
    "0f8e7d6c5b4a49388271-6a5b4c3d2e1f", "0f8e7d6c-5b4a-4938-8271-6a5b4c3d2e1", "",
    "0f8e7d6c-5b4a-4938-8271-6a5b4c3d2e1f0", "0f8e7d6g-5b4a-4938-8271-6a5b4c3d2e1f",
    "{0f8e7d6c-5b4a-4938-8271-6a5b4c3d2e1}", "0f8e7d6c_5b4a_4938_8271_6a5b4c3d2e1f",
    "0f8e7d6c-5b4a-4938-8271-6a5b4c3d2e1\u{0}", "0f8e7d6c-5b4a-4938-8271-6a5b4c3d2e1é",
    " f8e7d6c-5b4a-4938-8271-6a5b4c3d2e1f", "+f8e7d6c-5b4a-4938-8271-6a5b4c3d2e1f",
    "0x8e7d6c-5b4a-4938-8271-6a5b4c3d2e1f", "00000000-0000-0000-0000-000000000000", "evt-1",
  ])
  func isUUIDMatchesFoundation(_ text: String) {
    let foundation = UUID(uuidString: text) != nil
    #expect(Encoding.isUUID(text) == foundation)
    // The fast check only ever accepts what Foundation accepts.
    if UUIDText.isCanonical(text) { #expect(foundation) }
  }

  /// The plaintext written directly is `WireJSON`'s, for every kind and odd strings; with a
  /// nested summary it is `WireJSON`'s own.
  @Test func thePlaintextIsWireJSONs() throws {
    let odd = ["\"q\" \\ /", "\u{0}\u{1F}\u{7F}", "东京 😀", ""]
    var contents: [PushContent] = [
      Known.content(.test), Known.security(), Known.alert(),
      Known.task(), Known.content(.test, createdAt: -5, expiresAt: Int64.max),
    ]
    for text in odd {
      contents.append(
        PushContent(
          kind: PushContentKind(rawValue: text), deploymentID: text, userID: text,
          installationID: text, eventID: text, createdAt: 0, expiresAt: 1, serverID: text,
          securityEventID: text, securityEventType: PushSecurityEventType(rawValue: text)))
    }
    for content in contents {
      #expect(try PushEnvelopeSealer.plaintext(content) == (try WireJSON.encode(content)))
    }
  }

  @Test(arguments: [
    ["https://serverbee.test", "alice", "test-install"],
    ["https://a/b?c=d", "\"quoted\"", "back\\slash"],
    ["\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}", "东京 😀", "\u{7F}\u{80}"],
    ["", "", ""],
  ])
  func canonicalArrayMatchesWireJSON(_ parts: [String]) {
    #expect(
      PushIdentity.canonicalArray(parts[0], parts[1], parts[2])
        == PushIdentity.canonicalArrayByWireJSON(parts))
  }
}
