#if canImport(COpenSSL)
  internal import ServerBeeCore
  internal import ServerBeeCrypto
  internal import ServerBeeModels

  /// Seals and opens stored values with AES-256-GCM (ServerBeeCrypto's ``AESGCM``).
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
      let nonce = SecureRandom.bytes(Self.nonceSize)
      let sealed = key.withUnsafeBytes { keyBytes in
        AESGCM.platform.seal(
          key: UnsafeRawBufferPointer(start: keyBytes, count: MasterKey.size), nonce: nonce,
          aad: aad, plaintext: plaintext)
      }
      guard let sealed else { throw SecureStoreError(.storageFailed, "sealing a value failed") }
      return [Self.formatVersion] + nonce + sealed
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
      let body = Array(sealed[(1 + Self.nonceSize)...])
      return key.withUnsafeBytes { keyBytes in
        AESGCM.platform.open(
          key: UnsafeRawBufferPointer(start: keyBytes, count: MasterKey.size), nonce: nonce,
          aad: aad, sealed: body)
      }
    }
  }
#endif
