import Testing

@testable import PushEnvelopeCrypto

@Suite struct PushIdentityTests {
  @Test(arguments: [
    // The Protocol/Push.md §3.3 example.
    (
      "https://serverbee.test", "alice", "test-install",
      "40e9ea0a395dec3bafe5e84afbbe2e726ac53aa273f168b4ac650b208fdef51f"
    ),
    // Computed with Python json.dumps(separators=(",", ":"), ensure_ascii=False) + hashlib.
    (
      "https://serverbee.test", "6a1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "test-install",
      "0f2bdb9bfab542b966adfcc551b85062114bc75a496be8b8ceb1332f1c5741d0"
    ),
    (
      "https://服务器.test/a", "ü", "x",
      "ddcf8548f82880f469e6eccab97a08477df263211815302da4a8d5a7f280ad24"
    ),
  ])
  func identityHashMatchesTheReference(
    _ deployment: String, _ user: String, _ installation: String, _ expected: String
  ) {
    #expect(
      PushIdentity.hash(deploymentID: deployment, userID: user, installationID: installation)
        == expected)
  }

  @Test func identityIsHashedOverACompactArrayWithSlashesUnescaped() {
    let bytes = PushIdentity.canonicalArray("https://a.test/x", "u", "i")
    #expect(String(decoding: bytes, as: UTF8.self) == #"["https://a.test/x","u","i"]"#)
  }

  @Test func identityOfAKeyUsesItsThreeFields() {
    #expect(PushIdentity.hash(of: Known.key) == Known.identity)
  }

  @Test func additionalDataJoinsPrefixKeyIDAndIdentity() {
    #expect(
      PushIdentity.additionalData(keyID: Known.keyID, identity: Known.identity)
        == "ServerBee.Push.v1|0f8e7d6c-5b4a-4938-8271-6a5b4c3d2e1f|"
        + "0f2bdb9bfab542b966adfcc551b85062114bc75a496be8b8ceb1332f1c5741d0")
  }
}
