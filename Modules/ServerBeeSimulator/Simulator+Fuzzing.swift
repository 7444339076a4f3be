extension Simulator {
  /// The server's check of a proposed deletion proof (`revocation_proof` on refresh,
  /// Protocol/Auth.md §1.2): `sb-revoke-v1.` + canonical unpadded base64url of 32 bytes. For the
  /// fuzz target `fuzz-revocation-proof`.
  /// - Parameter proof: The proposed proof, as the client sent it.
  /// - Returns: Whether the server accepts its form (otherwise 422 before any lookup).
  @_spi(Fuzzing) public static func isCanonicalRevocationProof(_ proof: String) -> Bool {
    AuthArea.isCanonicalProof(proof)
  }
}
