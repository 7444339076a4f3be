import ServerBeeCore
import Testing

/// The portable SHA-256 against the FIPS 180-4 / NIST example vectors.
@Suite struct SHA256Tests {
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
  ])
  func digestsMatchTheNISTVectors(_ input: String, _ expected: String) {
    #expect(SHA256.hex(input) == expected)
  }

  @Test func aMillionAsMatchesTheLongVector() {
    let digest = SHA256.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
    let hex = digest.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
    #expect(hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test(arguments: [
    (55, "d5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072"),
    (56, "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e"),
    (63, "75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2"),
    (64, "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c"),
    (65, "9537c5fdf120482f7d58d25e9ed583f52c02b4e304ea814db1633ad565aed7e9"),
    (119, "000b48d4edf0fa7bee3c6236ecd2785baa5db4eeb8bb54341b029e0d9fa5fb0c"),
    (120, "13f05a0b594787f5ecd315edc96141bd3243203d1b7d4f0836f37308b276ba98"),
  ])
  func paddingBoundariesMatchPythonsHashlib(_ length: Int, _ expected: String) {
    #expect(SHA256.hex(String(repeating: "x", count: length)) == expected)
  }

  @Test func theV2IdentityExampleHashes() {
    #expect(
      SHA256.hex(#"["https://serverbee.test","alice","test-install"]"#)
        == "40e9ea0a395dec3bafe5e84afbbe2e726ac53aa273f168b4ac650b208fdef51f")
  }
}
