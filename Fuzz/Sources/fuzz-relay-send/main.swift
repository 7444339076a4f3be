// The relay's `POST /v1/send` schema check (ServerBeeRelay, Protocol/Relay.md). Invariants:
// an accepted body has exactly the rules' values (lowercase hex device token of even length
// 2–1024, sandbox or production, lowercase UUIDs, a safe positive integer expiry, envelope
// version 1 with a 64-hex identity, canonical base64 nonce of 12 bytes and ciphertext of
// 16–2070 bytes); the accepted request, written as a server writes it, is accepted again as
// the same request (a fixed point); and it agrees with the former JSONDecoder check:
// whatever the hand-written check accepts, the reference accepts as the same request, and what
// only the reference accepts (a repeated key) is accepted by both once written canonically.
import Foundation
import FuzzSupport
import ServerBeeModels
@_spi(Fuzzing) import ServerBeeRelay

func isLowercaseHex(_ text: String) -> Bool {
  text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
}

func isLowercaseUUID(_ text: String) -> Bool {
  UUID(uuidString: text) != nil && text == text.lowercased() && text.utf8.count == 36
}

func canonicalBase64Count(_ text: String) -> Int? {
  guard let data = Data(base64Encoded: text), data.base64EncodedString() == text else { return nil }
  return data.count
}

func fuzzOne(_ bytes: [UInt8]) {
  let reference = RelayServer.referenceValidateSendBody(bytes)
  guard let request = RelayServer.validateSendBody(bytes) else {
    if let reference, let written = try? WireJSON.encode(reference) {
      check(
        RelayServer.validateSendBody(Array(written)) == reference,
        "only the reference accepts the canonical form of \(describe(Data(bytes)))")
    }
    return
  }
  check(reference == request, "the reference judges \(describe(Data(bytes))) otherwise")
  let token = request.deviceToken
  check(
    (2...1024).contains(token.utf8.count) && token.utf8.count % 2 == 0 && isLowercaseHex(token),
    "device token \(token)")
  check(
    request.environment == .sandbox || request.environment == .production,
    "environment \(request.environment)")
  check(isLowercaseUUID(request.eventID), "event id \(request.eventID)")
  check((1...9_007_199_254_740_991).contains(request.expiresAt), "expires_at \(request.expiresAt)")
  let envelope = request.envelope
  check(envelope.version == 1 && isLowercaseUUID(envelope.keyID), "envelope version or key id")
  check(
    envelope.identity.utf8.count == 64 && isLowercaseHex(envelope.identity),
    "identity \(envelope.identity)")
  check(canonicalBase64Count(envelope.nonce) == 12, "nonce \(envelope.nonce)")
  check(
    envelope.ciphertext.utf8.count <= 2760
      && canonicalBase64Count(envelope.ciphertext).map { (16...2070).contains($0) } == true,
    "ciphertext of \(envelope.ciphertext.utf8.count) characters")
  guard let written = try? WireJSON.encode(request) else {
    fail("an accepted body does not encode")
  }
  check(
    RelayServer.validateSendBody(Array(written)) == request,
    "the accepted request, written again, is not accepted as itself: \(describe(written))")
}

runFuzzer(fuzzOne)
