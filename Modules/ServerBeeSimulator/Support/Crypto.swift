import COpenSSL
import Foundation

/// Source of random bytes; OpenSSL's `RAND_bytes` unless a test injects a seeded generator.
typealias RandomBytes = @Sendable (Int) -> [UInt8]

enum Crypto {
  static let systemRandom: RandomBytes = { count in
    var bytes = [UInt8](repeating: 0, count: count)
    if RAND_bytes(&bytes, Int32(count)) != 1 {
      // RAND_bytes failing means the process has no entropy; a test server cannot continue safely.
      preconditionFailure("RAND_bytes failed")
    }
    return bytes
  }

  static func sha256(_ data: [UInt8]) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    _ = data.withUnsafeBufferPointer { SHA256($0.baseAddress, data.count, &out) }
    return out
  }

  static func sha256Hex(_ text: String) -> String { hex(sha256(Array(text.utf8))) }

  static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    _ = key.withUnsafeBufferPointer { k in
      message.withUnsafeBufferPointer { m in
        HMAC(
          EVP_sha1(), k.baseAddress, Int32(key.count), m.baseAddress, message.count, &out, &length)
      }
    }
    return Array(out.prefix(Int(length)))
  }

  static func pbkdf2(password: String, salt: [UInt8], iterations: Int32 = 10_000) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 32)
    let pass = Array(password.utf8)
    _ = pass.withUnsafeBufferPointer { p in
      p.withMemoryRebound(to: CChar.self) { chars in
        PKCS5_PBKDF2_HMAC(
          chars.baseAddress, Int32(pass.count), salt, Int32(salt.count), iterations,
          EVP_sha256(), 32, &out)
      }
    }
    return out
  }

  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  static func base64URL(_ bytes: [UInt8]) -> String {
    Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  static let base64URLAlphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// Whether `text` is the canonical unpadded base64url form of exactly `byteCount` bytes.
  static func isCanonicalBase64URL(_ text: String, byteCount: Int) -> Bool {
    let characters = Array(text.utf8)
    guard characters.count == (byteCount * 8 + 5) / 6 else { return false }
    var last = 0
    for character in characters {
      guard let index = base64URLAlphabet.firstIndex(of: character) else { return false }
      last = index
    }
    let unusedBits = characters.count * 6 - byteCount * 8
    return last & ((1 << unusedBits) - 1) == 0
  }

  static func decodeBase64URL(_ text: String) -> [UInt8]? {
    var standard = text.replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    while standard.count % 4 != 0 { standard += "=" }
    return Data(base64Encoded: standard).map(Array.init)
  }

  /// A random token: `count` bytes as unpadded base64url (32 bytes → 43 characters).
  static func token(_ random: RandomBytes, bytes count: Int = 32) -> String {
    base64URL(random(count))
  }

  /// A lowercase UUID v4 from the injected randomness.
  static func uuid(_ random: RandomBytes) -> String {
    var bytes = random(16)
    bytes[6] = (bytes[6] & 0x0f) | 0x40
    bytes[8] = (bytes[8] & 0x3f) | 0x80
    let text = hex(bytes)
    let chars = Array(text)
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }
      .joined(separator: "-")
  }

  static func isUUID(_ text: String) -> Bool {
    let chars = Array(text.utf8)
    guard chars.count == 36 else { return false }
    for (index, character) in chars.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard character == UInt8(ascii: "-") else { return false }
      } else {
        let isHex =
          (48...57).contains(character) || (97...102).contains(character)
          || (65...70).contains(character)
        guard isHex else { return false }
      }
    }
    return true
  }
}

/// RFC 6238 TOTP: HMAC-SHA1, 6 digits, 30-second steps.
enum TOTP {
  static func decodeBase32(_ text: String) -> [UInt8]? {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
    var buffer = 0
    var bits = 0
    var out = [UInt8]()
    for character in text.uppercased().utf8 where character != UInt8(ascii: "=") {
      if character == UInt8(ascii: " ") { continue }
      guard let value = alphabet.firstIndex(of: character) else { return nil }
      buffer = (buffer << 5) | value
      bits += 5
      if bits >= 8 {
        bits -= 8
        out.append(UInt8((buffer >> bits) & 0xff))
      }
    }
    return out.isEmpty ? nil : out
  }

  static func code(secret: [UInt8], step: Int64) -> String {
    var counter = [UInt8](repeating: 0, count: 8)
    for index in 0..<8 { counter[7 - index] = UInt8((step >> (8 * Int64(index))) & 0xff) }
    let digest = Crypto.hmacSHA1(key: secret, message: counter)
    guard digest.count == 20 else { return "" }
    let offset = Int(digest[19] & 0x0f)
    let value =
      (UInt32(digest[offset] & 0x7f) << 24) | (UInt32(digest[offset + 1]) << 16)
      | (UInt32(digest[offset + 2]) << 8) | UInt32(digest[offset + 3])
    let text = String(value % 1_000_000)
    return String(repeating: "0", count: 6 - text.count) + text
  }

  /// Whether `code` matches at `unixSeconds` with ±1 step of skew.
  static func verify(code: String, secretBase32: String, unixSeconds: Int64) -> Bool {
    guard code.utf8.count == 6, let secret = decodeBase32(secretBase32) else { return false }
    let step = unixSeconds / 30
    return (step - 1...step + 1).contains { self.code(secret: secret, step: $0) == code }
  }
}
