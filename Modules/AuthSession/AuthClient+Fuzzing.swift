extension AuthClient {
  /// The deletion proof a client proposes for 32 random bytes (Protocol/Auth.md §1.2). For the
  /// fuzz target `fuzz-revocation-proof`, which checks that the server accepts every proof a
  /// client makes and nothing else.
  /// - Parameter bytes: The random bytes (32 in production).
  /// - Returns: `sb-revoke-v1.` + unpadded base64url of `bytes`.
  @_spi(Fuzzing) public static func revocationProof(from bytes: [UInt8]) -> String {
    RevocationProof.make(from: bytes)
  }
}
