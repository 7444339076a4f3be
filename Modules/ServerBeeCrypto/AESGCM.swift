// The one AES-256-GCM of ServerBeeKit (Documentation/Architecture.md §7.2): OpenSSL on Linux,
// CryptoKit on Apple platforms, behind one protocol. Push envelopes (PushEnvelopeCrypto) and stored
// values (SecureStore) both seal with it; the known-answer tests in ServerBeeCryptoTests run
// against whichever implementation the platform compiles, so both paths must pass the same vectors.

#if canImport(CryptoKit)
  import CryptoKit
  import Foundation
#else
  import COpenSSL
#endif

/// AES-256-GCM with a 12-byte nonce and a 16-byte tag appended to the ciphertext.
///
/// ```swift
/// let sealed = AESGCM.platform.seal(key: key, nonce: nonce, aad: aad, plaintext: text)
/// let opened = AESGCM.platform.open(key: key, nonce: nonce, aad: aad, sealed: sealed ?? [])
/// ```
package protocol AEADCipher: Sendable {
  /// Seals `plaintext` with a 32-byte key; returns ciphertext ‖ tag, or `nil` when the input
  /// is out of range or the library fails.
  func seal(key: UnsafeRawBufferPointer, nonce: [UInt8], aad: [UInt8], plaintext: [UInt8])
    -> [UInt8]?
  /// Opens ciphertext ‖ tag; `nil` on any authentication or input failure.
  func open(key: UnsafeRawBufferPointer, nonce: [UInt8], aad: [UInt8], sealed: [UInt8])
    -> [UInt8]?
}

extension AEADCipher {
  /// ``seal(key:nonce:aad:plaintext:)`` with the key in an array.
  package func seal(key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]) -> [UInt8]? {
    key.withUnsafeBytes { seal(key: $0, nonce: nonce, aad: aad, plaintext: plaintext) }
  }

  /// ``open(key:nonce:aad:sealed:)`` with the key in an array.
  package func open(key: [UInt8], nonce: [UInt8], aad: [UInt8], sealed: [UInt8]) -> [UInt8]? {
    key.withUnsafeBytes { open(key: $0, nonce: nonce, aad: aad, sealed: sealed) }
  }
}

/// The sizes of AES-256-GCM and the implementation this platform compiles.
package enum AESGCM {
  /// 32 bytes.
  package static let keyLength = 32
  /// 12 bytes.
  package static let nonceLength = 12
  /// 16 bytes.
  package static let tagLength = 16

  /// The cipher this platform uses.
  package static var platform: any AEADCipher {
    #if canImport(CryptoKit)
      CryptoKitAESGCM()
    #else
      OpenSSLAESGCM()
    #endif
  }
}

#if canImport(CryptoKit)
  /// CryptoKit's `AES.GCM`. Not compiled on Linux; written against the documented API.
  package struct CryptoKitAESGCM: AEADCipher {
    package init() {}

    package func seal(
      key: UnsafeRawBufferPointer, nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]
    ) -> [UInt8]? {
      guard key.count == AESGCM.keyLength, nonce.count == AESGCM.nonceLength,
        let gcmNonce = try? AES.GCM.Nonce(data: nonce),
        let box = try? AES.GCM.seal(
          plaintext, using: SymmetricKey(data: key), nonce: gcmNonce, authenticating: aad)
      else { return nil }
      return Array(box.ciphertext) + Array(box.tag)
    }

    package func open(
      key: UnsafeRawBufferPointer, nonce: [UInt8], aad: [UInt8], sealed: [UInt8]
    ) -> [UInt8]? {
      guard key.count == AESGCM.keyLength, nonce.count == AESGCM.nonceLength,
        sealed.count >= AESGCM.tagLength,
        let gcmNonce = try? AES.GCM.Nonce(data: nonce),
        let box = try? AES.GCM.SealedBox(
          nonce: gcmNonce, ciphertext: Array(sealed.dropLast(AESGCM.tagLength)),
          tag: Array(sealed.suffix(AESGCM.tagLength))),
        let plaintext = try? AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: aad)
      else { return nil }
      return Array(plaintext)
    }
  }
#else
  /// OpenSSL's EVP AES-256-GCM through the shared `copenssl_aes256gcm_seal/open` shim.
  package struct OpenSSLAESGCM: AEADCipher {
    package init() {}

    package func seal(
      key: UnsafeRawBufferPointer, nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]
    ) -> [UInt8]? {
      guard key.count == AESGCM.keyLength, nonce.count == AESGCM.nonceLength,
        plaintext.count <= Int(Int32.max) - AESGCM.tagLength, aad.count <= Int(Int32.max)
      else { return nil }
      // One spare byte keeps every base address non-nil, even for an empty plaintext.
      var ciphertext = [UInt8](repeating: 0, count: plaintext.count + 1)
      var tag = [UInt8](repeating: 0, count: AESGCM.tagLength)
      let ok = key.withMemoryRebound(to: UInt8.self) { k in
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

    package func open(
      key: UnsafeRawBufferPointer, nonce: [UInt8], aad: [UInt8], sealed: [UInt8]
    ) -> [UInt8]? {
      guard key.count == AESGCM.keyLength, nonce.count == AESGCM.nonceLength,
        sealed.count >= AESGCM.tagLength, sealed.count <= Int(Int32.max),
        aad.count <= Int(Int32.max)
      else { return nil }
      let body = Array(sealed.dropLast(AESGCM.tagLength))
      let tag = Array(sealed.suffix(AESGCM.tagLength))
      var plaintext = [UInt8](repeating: 0, count: body.count + 1)
      let ok = key.withMemoryRebound(to: UInt8.self) { k in
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
