@_spi(Fuzzing) import AuthSession
// Deletion proofs (Protocol/Auth.md §1.2), client and server: the server's form check of a
// proposed `revocation_proof` (ServerBeeSimulator) against an independent reading of the rule,
// and against the client's proof maker (AuthSession). Invariants: the server accepts a text
// exactly when it is `sb-revoke-v1.` + the canonical unpadded base64url of 32 bytes, i.e. when
// the client would have made that very text from those bytes; every proof the client makes
// from 32 bytes is accepted.
import Foundation
import FuzzSupport
@_spi(Fuzzing) import ServerBeeSimulator

let prefix = "sb-revoke-v1."

/// The reference reading: decode base64url (no padding, no other characters), then require
/// that the client's encoding of the bytes is the text.
func referenceAccepts(_ text: String) -> Bool {
  guard text.hasPrefix(prefix) else { return false }
  let body = text.utf8.dropFirst(prefix.utf8.count)
  let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
  guard body.allSatisfy(alphabet.contains) else { return false }
  var standard = String(decoding: body, as: UTF8.self)
    .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
  while standard.utf8.count % 4 != 0 { standard += "=" }
  guard let bytes = Data(base64Encoded: standard), bytes.count == 32 else { return false }
  return AuthClient.revocationProof(from: Array(bytes)) == text
}

func fuzzOne(_ bytes: [UInt8]) {
  let text = String(decoding: bytes, as: UTF8.self)
  for candidate in [text, prefix + text] {
    let server = Simulator.isCanonicalRevocationProof(candidate)
    check(
      server == referenceAccepts(candidate),
      "the server says \(server) for \(candidate.debugDescription)")
  }
  if bytes.count >= 32 {
    let proof = AuthClient.revocationProof(from: Array(bytes.prefix(32)))
    check(Simulator.isCanonicalRevocationProof(proof), "the server refuses the client's \(proof)")
  }
}

runFuzzer(fuzzOne)
