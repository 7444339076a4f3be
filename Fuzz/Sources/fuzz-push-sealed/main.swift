// The push content rules behind a valid seal: the fuzzer's bytes are sealed with the fixed
// test key (as a server, or a compromised one, would), then opened. Invariants: a valid seal
// never fails as a seal (no version, key id, size, encoding or authentication error), only by
// a content rule; failures are PushEnvelopeCryptoError; an accepted content names the key's
// deployment, user and installation, has a UUID event id, a 1800 s lifetime, a known kind with
// a matching tap target, and opens for a tap when it opens for delivery; re-sealing the
// accepted content as a server writes it opens to the same validated content.
import Foundation
import FuzzSupport
import PushEnvelopeCrypto
import PushFuzzSupport
import ServerBeeModels

let contentCodes: Set<PushEnvelopeCryptoError.Code> = [
  .malformedContent, .identityMismatch, .invalidEventID, .invalidLifetime, .notYetValid,
  .expired, .unknownKind, .invalidContent,
]

func checkAccepted(_ validated: ValidatedPushContent, purpose: PushOpenPurpose) {
  let content = validated.content
  check(
    content.deploymentID == testKey.deploymentID && content.userID == testKey.userID
      && content.installationID == testKey.installationID, "another identity accepted")
  check(UUID(uuidString: content.eventID) != nil, "event id \(content.eventID)")
  check(content.expiresAt - content.createdAt == 1800, "lifetime")
  check(Double(content.createdAt) <= testNow.timeIntervalSince1970 + 60, "created in the future")
  if purpose == .delivery {
    check(Double(content.expiresAt) > testNow.timeIntervalSince1970, "expired content delivered")
  }
  check(validated.purpose == purpose && validated.keyID == testKey.keyID, "purpose or key id")
  switch (content.kind, validated.tapTarget) {
  case (.test, .home): break
  case (.alert, .alertDetail(let key)):
    check(key.isV1 && key.text == content.alert?.alertKey, "alert key \(key)")
  case (.taskFailure, .taskRun(let task, let run)), (.taskSuccess, .taskRun(let task, let run)):
    check(task == content.taskRun?.taskID && run == content.eventID, "task target")
  case (.security, .securityEvent(let server, let event)):
    check(server == content.serverID && event == content.eventID, "security target")
  default:
    fail("kind \(content.kind) leads to \(validated.tapTarget)")
  }
}

func fuzzOne(_ bytes: [UInt8]) {
  let envelope = sealForTestKey(bytes)
  let delivery = openChecked(envelope, for: .delivery)
  let tap = openChecked(envelope, for: .tap)
  for result in [delivery, tap] {
    if case .failure(let error) = result {
      check(contentCodes.contains(error.code), "a valid seal failed with \(error.code)")
    }
  }
  if case .success(let validated) = delivery {
    checkAccepted(validated, purpose: .delivery)
    check((try? tap.get())?.content == validated.content, "delivery opens but a tap does not")
  }
  guard case .success(let validated) = tap else { return }
  checkAccepted(validated, purpose: .tap)
  // Re-sealed as a server writes it (WireJSON key order), the content opens the same.
  guard let resealed = try? testSealer.seal(validated.content, with: testKey) else {
    fail("an accepted content cannot be sealed again")
  }
  check(
    (try? openChecked(resealed, for: .tap).get()) == validated,
    "the re-sealed content opens differently")
}

runFuzzer(fuzzOne)
