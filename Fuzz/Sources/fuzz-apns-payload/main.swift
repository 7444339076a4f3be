// The raw APNs payload → envelope opener (PushEnvelopeOpener), unseeded: whatever a push
// provider, a proxy or an attacker could deliver to the notification extension. Invariants:
// failures are PushEnvelopeCryptoError only; reading the envelope and opening it agree with
// opening the payload in one step; an envelope that opens for delivery opens for a tap with the
// same content; nothing opens without authenticating (the tap target comes only from a
// validated content).
import Foundation
import FuzzSupport
import PushEnvelopeCrypto
import PushFuzzSupport
import ServerBeeModels

func fuzzOne(_ bytes: [UInt8]) {
  let payload = Data(bytes)
  let direct: Result<ValidatedPushContent, PushEnvelopeCryptoError>
  do {
    direct = .success(try testOpener.open(apnsPayload: payload, with: testKey, for: .delivery))
  } catch let error as PushEnvelopeCryptoError {
    direct = .failure(error)
  } catch {
    fail("untyped error \(error)")
  }
  let envelope: PushEnvelope
  do {
    envelope = try PushEnvelopeOpener.envelope(fromAPNSPayload: payload)
  } catch {
    guard case .failure(let failure) = direct, failure.code == error.code else {
      fail("reading the envelope failed with \(error.code), opening gave \(direct)")
    }
    check(
      error.code == .tooLarge || error.code == .malformedEnvelope, "envelope code \(error.code)")
    return
  }
  let delivery = openChecked(envelope, for: .delivery)
  switch (delivery, direct) {
  case (.success(let stepwise), .success(let oneStep)):
    check(stepwise == oneStep, "the two ways of opening give other contents")
  case (.failure(let stepwise), .failure(let oneStep)):
    check(stepwise.code == oneStep.code, "opening fails with \(stepwise.code) or \(oneStep.code)")
  default:
    fail("one way of opening succeeds, the other does not")
  }
  let tap = openChecked(envelope, for: .tap)
  if case .success(let content) = delivery {
    check((try? tap.get())?.content == content.content, "delivery opens but a tap does not")
  }
  check(
    testOpener.tapTarget(for: envelope, with: testKey) == (try? tap.get())?.tapTarget,
    "tapTarget disagrees with open(for: .tap)")
  check(testOpener.tapTarget(for: envelope, with: nil) == nil, "a tap target without a key")
}

runFuzzer(fuzzOne)
