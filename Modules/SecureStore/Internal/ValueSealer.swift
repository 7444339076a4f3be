#if canImport(COpenSSL)
  internal import ServerBeeModels
  internal import COpenSSL

  /// Seals and opens stored values with AES-256-GCM (`copenssl_aes256gcm_seal/open`).
  ///
  /// Sealed layout: `version (1) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`, with a random nonce per
  /// value. The AAD is `version ‖ domain ‖ 0 ‖ group ‖ 0 ‖ name`, so a value copied to another
  /// key, another group, or the meta table fails to open. Names contain no NUL (see
  /// ``CredentialKey``), which keeps the AAD unambiguous.
  struct ValueSealer: Sendable {
    static let formatVersion: UInt8 = 1
    static let nonceSize = 12
    static let tagSize = 16
    static let overhead = 1 + nonceSize + tagSize

    let key: MasterKey

    static func credentialAAD(group: AccessGroup, key: CredentialKey) -> [UInt8] {
      [formatVersion] + Array("credential".utf8) + [0] + Array(group.rawValue.utf8) + [0]
        + Array(key.rawValue.utf8)
    }

    static func metaAAD(name: String) -> [UInt8] {
      [formatVersion] + Array("meta".utf8) + [0] + Array(name.utf8)
    }

    func seal(_ plaintext: [UInt8], aad: [UInt8]) throws(SecureStoreError) -> [UInt8] {
      let nonce = try SecureRandom.bytes(Self.nonceSize)
      // Buffers are never empty so that no pointer handed to C is nil.
      var ciphertext = [UInt8](repeating: 0, count: max(plaintext.count, 1))
      var tag = [UInt8](repeating: 0, count: Self.tagSize)
      let input = plaintext.isEmpty ? [0] : plaintext
      let ok = key.withUnsafeBytes { keyBytes in
        copenssl_aes256gcm_seal(
          keyBytes, nonce, aad, Int32(aad.count), input, Int32(plaintext.count), &ciphertext, &tag)
      }
      guard ok == 1 else { throw SecureStoreError(.storageFailed, "sealing a value failed") }
      return [Self.formatVersion] + nonce + ciphertext[0..<plaintext.count] + tag
    }

    /// Opens a sealed value; `nil` when authentication fails (wrong key, tampering, wrong AAD).
    /// - Throws: ``SecureStoreError/Code/unsupportedFormat`` for a newer format version.
    func open(_ sealed: [UInt8], aad: [UInt8]) throws(SecureStoreError) -> [UInt8]? {
      guard sealed.count >= Self.overhead else { return nil }
      guard sealed[0] == Self.formatVersion else {
        // Only a version byte above ours can be a newer SDK; anything else is damage.
        if sealed[0] > Self.formatVersion {
          throw SecureStoreError(
            .unsupportedFormat, "a value has format version \(sealed[0]); this SDK reads 1")
        }
        return nil
      }
      let nonce = Array(sealed[1..<(1 + Self.nonceSize)])
      let ciphertext = Array(sealed[(1 + Self.nonceSize)..<(sealed.count - Self.tagSize)])
      let tag = Array(sealed[(sealed.count - Self.tagSize)...])
      var plaintext = [UInt8](repeating: 0, count: max(ciphertext.count, 1))
      let input = ciphertext.isEmpty ? [0] : ciphertext
      let ok = key.withUnsafeBytes { keyBytes in
        copenssl_aes256gcm_open(
          keyBytes, nonce, aad, Int32(aad.count), input, Int32(ciphertext.count), tag, &plaintext)
      }
      guard ok == 1 else { return nil }
      return Array(plaintext[0..<ciphertext.count])
    }
  }
#endif
