import COpenSSL
import Foundation
import ServerBeeCore

/// What the simulator needs beyond ServerBeeCore's primitives: HMAC-SHA1 for TOTP and PBKDF2 for
/// password hashes (OpenSSL, Decision 0004), and tokens and UUIDs from the injected randomness.
enum Crypto {
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

  /// A random token: `count` bytes as unpadded base64url (32 bytes → 43 characters).
  static func token(_ random: RandomBytes, bytes count: Int = 32) -> String {
    Base64URL.encode(random(count))
  }

  /// A lowercase UUID v4 from the injected randomness.
  static func uuid(_ random: RandomBytes) -> String { UUIDText.v4(from: random(16)) }
}

/// RFC 6238 TOTP: HMAC-SHA1, 6 digits, 30-second steps.
enum TOTP {
  /// RFC 4648 base32 without padding, upper case (the form authenticator apps take).
  static func encodeBase32(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
    var out: [UInt8] = []
    var buffer = 0
    var bits = 0
    for byte in bytes {
      buffer = (buffer << 8) | Int(byte)
      bits += 8
      while bits >= 5 {
        bits -= 5
        out.append(alphabet[(buffer >> bits) & 0x1F])
      }
      buffer &= (1 << bits) - 1
    }
    if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 0x1F]) }
    return String(decoding: out, as: UTF8.self)
  }

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
