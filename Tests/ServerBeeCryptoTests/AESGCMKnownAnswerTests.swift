import ServerBeeCore
import ServerBeeCrypto
import Testing

/// Known answers from "The Galois/Counter Mode of Operation (GCM)", McGrew & Viega, test cases
/// 13–16 (AES-256). They run against whichever cipher this platform compiles (OpenSSL through
/// the COpenSSL `copenssl_aes256gcm_*` shim on Linux, CryptoKit on Apple platforms): the one
/// cipher push envelopes and SecureStore seal with.
@Suite struct AESGCMKnownAnswerTests {
  struct Vector: Sendable, CustomTestStringConvertible {
    let name: String
    let key: String
    let nonce: String
    let plaintext: String
    let aad: String
    let ciphertext: String
    let tag: String
    var testDescription: String { name }
  }

  static let key15 = "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"
  static let plaintext15 =
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
    + "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
  static let ciphertext15 =
    "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
    + "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad"

  static let vectors = [
    Vector(
      name: "test case 13", key: String(repeating: "00", count: 32),
      nonce: String(repeating: "00", count: 12), plaintext: "", aad: "", ciphertext: "",
      tag: "530f8afbc74536b9a963b4f1c4cb738b"),
    Vector(
      name: "test case 14", key: String(repeating: "00", count: 32),
      nonce: String(repeating: "00", count: 12), plaintext: String(repeating: "00", count: 16),
      aad: "", ciphertext: "cea7403d4d606b6e074ec5d3baf39d18",
      tag: "d0d1c8a799996bf0265b98b5d48ab919"),
    Vector(
      name: "test case 15", key: key15, nonce: "cafebabefacedbaddecaf888", plaintext: plaintext15,
      aad: "", ciphertext: ciphertext15, tag: "b094dac5d93471bdec1a502270e3cc6c"),
    Vector(
      name: "test case 16", key: key15, nonce: "cafebabefacedbaddecaf888",
      plaintext: String(plaintext15.dropLast(8)), aad: "feedfacedeadbeeffeedfacedeadbeefabaddad2",
      ciphertext: String(ciphertext15.dropLast(8)), tag: "76fc6ece0f4e1768cddf8853bb2d551b"),
  ]

  @Test(arguments: vectors)
  func sealMatchesTheKnownAnswer(_ vector: Vector) throws {
    let sealed = try #require(
      AESGCM.platform.seal(
        key: bytes(fromHex: vector.key), nonce: bytes(fromHex: vector.nonce),
        aad: bytes(fromHex: vector.aad), plaintext: bytes(fromHex: vector.plaintext)))
    #expect(Hex.encode(sealed) == vector.ciphertext + vector.tag)
  }

  @Test(arguments: vectors)
  func openRecoversThePlaintext(_ vector: Vector) throws {
    let opened = try #require(
      AESGCM.platform.open(
        key: bytes(fromHex: vector.key), nonce: bytes(fromHex: vector.nonce),
        aad: bytes(fromHex: vector.aad),
        sealed: bytes(fromHex: vector.ciphertext + vector.tag)))
    #expect(Hex.encode(opened) == vector.plaintext)
  }

  @Test(arguments: vectors)
  func openRefusesAChangedTagOrAAD(_ vector: Vector) {
    let key = bytes(fromHex: vector.key)
    let nonce = bytes(fromHex: vector.nonce)
    var sealed = bytes(fromHex: vector.ciphertext + vector.tag)
    #expect(
      AESGCM.platform.open(key: key, nonce: nonce, aad: Array("x".utf8), sealed: sealed)
        == nil)
    sealed[sealed.count - 1] ^= 0x01
    #expect(
      AESGCM.platform.open(
        key: key, nonce: nonce, aad: bytes(fromHex: vector.aad), sealed: sealed) == nil)
  }

  @Test func openRefusesInputShorterThanATag() {
    #expect(
      AESGCM.platform.open(
        key: [UInt8](repeating: 0, count: 32), nonce: [UInt8](repeating: 0, count: 12), aad: [],
        sealed: [UInt8](repeating: 0, count: 15)) == nil)
  }

  @Test(arguments: [31, 33])
  func sealRefusesAKeyOfTheWrongLength(_ length: Int) {
    #expect(
      AESGCM.platform.seal(
        key: [UInt8](repeating: 0, count: length), nonce: [UInt8](repeating: 0, count: 12),
        aad: [], plaintext: [1]) == nil)
  }
}

/// The bytes of a hex string (test vectors only).
func bytes(fromHex hex: String) -> [UInt8] {
  let digits = Array(hex.utf8)
  return stride(from: 0, to: digits.count - 1, by: 2).map { index in
    UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) ?? 0
  }
}
