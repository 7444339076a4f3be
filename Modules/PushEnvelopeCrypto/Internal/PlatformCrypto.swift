// The one internal cipher interface of the module (architecture-and-style §4): AES-256-GCM and
// SHA-256 through OpenSSL on Linux and CryptoKit on Apple platforms. Everything above this file
// is platform-neutral; the known-answer tests in PushEnvelopeCryptoTests run against whichever
// implementation the platform compiles, so both paths must pass the same vectors.

import ServerBeeModels

#if canImport(CryptoKit)
  import CryptoKit
  import Foundation
#else
  import COpenSSL
#endif

/// AES-256-GCM with a 12-byte nonce and a 16-byte tag appended to the ciphertext.
protocol AEADCipher: Sendable {
  /// Seals `plaintext`; returns ciphertext ‖ tag, or `nil` when the library fails.
  func seal(key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]) -> [UInt8]?
  /// Opens ciphertext ‖ tag; `nil` on any authentication or input failure.
  func open(key: [UInt8], nonce: [UInt8], aad: [UInt8], sealed: [UInt8]) -> [UInt8]?
}

enum PlatformCrypto {
  static let keyLength = 32
  static let nonceLength = 12
  static let tagLength = 16

  /// The cipher this platform uses.
  static var aesGCM: any AEADCipher {
    #if canImport(CryptoKit)
      CryptoKitAESGCM()
    #else
      OpenSSLAESGCM()
    #endif
  }

  /// SHA-256 of `bytes`.
  static func sha256(_ bytes: [UInt8]) -> [UInt8] {
    #if canImport(CryptoKit)
      return Array(SHA256.hash(data: bytes))
    #else
      var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
      var length: UInt32 = 0
      let ok = bytes.withUnsafeBufferPointer { input in
        digest.withUnsafeMutableBufferPointer { output in
          EVP_Digest(
            input.baseAddress, input.count, output.baseAddress, &length,
            FetchedDigest.shared.sha256, nil)
        }
      }
      guard ok == 1, Int(length) == digest.count else {
        // Not expected; the one-shot call fetches the algorithm itself.
        bytes.withUnsafeBufferPointer { input in
          digest.withUnsafeMutableBufferPointer { output in
            _ = SHA256(input.baseAddress, input.count, output.baseAddress)
          }
        }
        return digest
      }
      return digest
    #endif
  }

  /// `count` bytes from the system generator; the default source of sealers and key generators.
  @Sendable static func systemRandomBytes(_ count: Int) throws -> [UInt8] {
    guard let bytes = randomBytes(count) else {
      throw PushEnvelopeCryptoError(.cryptoFailure, "the system random generator failed")
    }
    return bytes
  }

  /// `count` bytes from the operating system's cryptographic generator, or `nil` on failure.
  static func randomBytes(_ count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    #if canImport(CryptoKit)
      // SystemRandomNumberGenerator is documented as cryptographically secure on Apple platforms
      // (arc4random_buf); it avoids importing Security just for SecRandomCopyBytes.
      var generator = SystemRandomNumberGenerator()
      for index in bytes.indices { bytes[index] = generator.next() }
      return bytes
    #else
      let ok = bytes.withUnsafeMutableBufferPointer { buffer in
        RAND_bytes(buffer.baseAddress, Int32(buffer.count))
      }
      return ok == 1 ? bytes : nil
    #endif
  }
}

#if !canImport(CryptoKit)
  /// OpenSSL's SHA-256, fetched once. OpenSSL 3's one-shot `SHA256()` looks the algorithm up
  /// by name on every call (`EVP_Q_digest`), which was about 5 k of the extension step's
  /// instructions; a fetched `EVP_MD` skips that.
  ///
  /// `@unchecked Sendable`: the pointer is written once in `init` and never changed, and
  /// OpenSSL documents fetched algorithm objects as safe to share between threads.
  final class FetchedDigest: @unchecked Sendable {
    static let shared = FetchedDigest()
    /// `nil` if the fetch failed; `EVP_Digest` then fails and the caller falls back.
    let sha256: OpaquePointer?

    private init() {
      sha256 = EVP_MD_fetch(nil, "SHA256", nil)
    }
  }
#endif

#if canImport(CryptoKit)
  /// CryptoKit's `AES.GCM`. Not compiled on Linux; written against the documented API.
  struct CryptoKitAESGCM: AEADCipher {
    func seal(key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]) -> [UInt8]? {
      guard key.count == PlatformCrypto.keyLength, nonce.count == PlatformCrypto.nonceLength,
        let gcmNonce = try? AES.GCM.Nonce(data: nonce),
        let box = try? AES.GCM.seal(
          plaintext, using: SymmetricKey(data: key), nonce: gcmNonce, authenticating: aad)
      else { return nil }
      return Array(box.ciphertext) + Array(box.tag)
    }

    func open(key: [UInt8], nonce: [UInt8], aad: [UInt8], sealed: [UInt8]) -> [UInt8]? {
      guard key.count == PlatformCrypto.keyLength, nonce.count == PlatformCrypto.nonceLength,
        sealed.count >= PlatformCrypto.tagLength,
        let gcmNonce = try? AES.GCM.Nonce(data: nonce),
        let box = try? AES.GCM.SealedBox(
          nonce: gcmNonce, ciphertext: Array(sealed.dropLast(PlatformCrypto.tagLength)),
          tag: Array(sealed.suffix(PlatformCrypto.tagLength))),
        let plaintext = try? AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: aad)
      else { return nil }
      return Array(plaintext)
    }
  }
#else
  /// OpenSSL's EVP AES-256-GCM through the shared `copenssl_aes256gcm_seal/open` shim.
  struct OpenSSLAESGCM: AEADCipher {
    func seal(key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]) -> [UInt8]? {
      guard key.count == PlatformCrypto.keyLength, nonce.count == PlatformCrypto.nonceLength,
        plaintext.count <= Int(Int32.max) - PlatformCrypto.tagLength, aad.count <= Int(Int32.max)
      else { return nil }
      // One spare byte keeps every base address non-nil, even for an empty plaintext.
      var ciphertext = [UInt8](repeating: 0, count: plaintext.count + 1)
      var tag = [UInt8](repeating: 0, count: PlatformCrypto.tagLength)
      let ok = key.withUnsafeBufferPointer { k in
        nonce.withUnsafeBufferPointer { n in
          aad.withUnsafeBufferPointer { a in
            plaintext.withUnsafeBufferPointer { p in
              ciphertext.withUnsafeMutableBufferPointer { c in
                tag.withUnsafeMutableBufferPointer { t in
                  copenssl_aes256gcm_seal(
                    k.baseAddress, n.baseAddress, a.baseAddress, Int32(a.count), p.baseAddress,
                    Int32(p.count), c.baseAddress, t.baseAddress)
                }
              }
            }
          }
        }
      }
      guard ok == 1 else { return nil }
      ciphertext.removeLast()
      return ciphertext + tag
    }

    func open(key: [UInt8], nonce: [UInt8], aad: [UInt8], sealed: [UInt8]) -> [UInt8]? {
      guard key.count == PlatformCrypto.keyLength, nonce.count == PlatformCrypto.nonceLength,
        sealed.count >= PlatformCrypto.tagLength, sealed.count <= Int(Int32.max),
        aad.count <= Int(Int32.max)
      else { return nil }
      let body = Array(sealed.dropLast(PlatformCrypto.tagLength))
      let tag = Array(sealed.suffix(PlatformCrypto.tagLength))
      var plaintext = [UInt8](repeating: 0, count: body.count + 1)
      let ok = key.withUnsafeBufferPointer { k in
        nonce.withUnsafeBufferPointer { n in
          aad.withUnsafeBufferPointer { a in
            body.withUnsafeBufferPointer { c in
              tag.withUnsafeBufferPointer { t in
                plaintext.withUnsafeMutableBufferPointer { p in
                  copenssl_aes256gcm_open(
                    k.baseAddress, n.baseAddress, a.baseAddress, Int32(a.count), c.baseAddress,
                    Int32(c.count), t.baseAddress, p.baseAddress)
                }
              }
            }
          }
        }
      }
      guard ok == 1 else { return nil }
      plaintext.removeLast()
      return plaintext
    }
  }
#endif
