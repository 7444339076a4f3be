// Every REST envelope and wire model of ServerBeeModels, read with WireJSON: as the payload of
// `APIResponse` (`{"data": …}`, also lists), and bare (push, relay and request bodies). The
// first byte picks the model, the second the form. Invariants: failures are
// ServerBeeModelsError only; decode(encode(x)) == x and the encoding is a fixed point
// (byte-identical when written again); `APIResponse.payload(status: 200, …)` agrees with
// WireJSON; an error body keeps its meaning when re-encoded (APIFailure).
import Foundation
import FuzzSupport
import ServerBeeModels

func roundTrip<T: Codable & Equatable>(_ type: T.Type, _ data: Data) {
  let name = String(describing: T.self)
  let value: T
  do {
    value = try WireJSON.decode(T.self, from: data)
  } catch is ServerBeeModelsError {
    return
  } catch {
    fail("\(name): untyped error \(error)")
  }
  let encoded: Data
  do {
    encoded = try WireJSON.encode(value)
  } catch {
    fail("\(name) decodes but does not encode: \(error) for \(describe(data))")
  }
  let again: T
  do {
    again = try WireJSON.decode(T.self, from: encoded)
  } catch {
    fail("\(name): its own encoding does not decode: \(error) for \(describe(encoded, limit: 600))")
  }
  guard let twice = try? WireJSON.encode(again) else { fail("\(name): encoding failed twice") }
  // The encoding is a fixed point: byte-identical when written again. Compared as text, not
  // with ==, because explicit nulls of metrics decode as NaN (never equal to itself). The one
  // exception: JSONValue objects read by Foundation have no stable member order (documented
  // on JSONValue), so then the values must be equal and the texts hold the same JSON.
  check(
    twice == encoded || (again == value && sameJSON(twice, encoded)),
    "\(name): decode(encode(x)) differs from x for \(describe(encoded, limit: 600))")
}

func sameJSON(_ a: Data, _ b: Data) -> Bool {
  guard let x = try? WireJSON.decode(JSONValue.self, from: a),
    let y = try? WireJSON.decode(JSONValue.self, from: b)
  else { return false }
  return x == y  // members compared regardless of order
}

/// The three forms a model is read in.
func forms<T: Codable & Equatable>(_ type: T.Type) -> [(Data) -> Void] {
  [
    { roundTrip(APIResponse<T>.self, $0) },
    { roundTrip(APIResponse<[T]>.self, $0) },
    { roundTrip(T.self, $0) },
  ]
}

nonisolated(unsafe) let models: [[(Data) -> Void]] = [
  // REST payloads (Protocol/Servers.md): servers, records, groups.
  forms(ServerResponse.self), forms(ServerRecord.self), forms(ServerGroup.self),
  forms(Capabilities.self), forms(DiskIO.self),
  // Alerts.
  forms(AlertEvent.self), forms(AlertEventDetail.self), forms(AlertRule.self),
  forms(AlertRuleState.self), forms(AlertKey.self),
  // Tasks.
  forms(ServerTask.self), forms(TaskResult.self), forms(CreateTaskRequest.self),
  // Security.
  forms(SecurityEvent.self), forms(SecurityEventPage.self), forms(SecurityStatsEntry.self),
  forms(SecurityEventPayload.self), forms(SecurityEventEvidence.self),
  // Auth, devices and recovery.
  forms(CurrentUser.self), forms(SessionUser.self), forms(MobileDevice.self),
  forms(MobileTokenResponse.self), forms(PairCodeResponse.self), forms(RecoveryResponse.self),
  forms(RecoveryCandidate.self), forms(LoginRequest.self), forms(RefreshRequest.self),
  forms(PairRedeemRequest.self), forms(RevokeRequest.self), forms(PasswordChangeRequest.self),
  forms(LegacyPushRegisterRequest.self), forms(PairingPayload.self),
  forms(ServerURL.self),
  // Push setup, contents, envelopes and the relay.
  forms(PushSetupResponse.self), forms(PushPreferences.self), forms(PushSettingsUpdate.self),
  forms(TestPushRequest.self), forms(TestPushResponse.self), forms(EncryptedRegisterRequest.self),
  forms(PushContent.self), forms(PushContentKey.self), forms(PushEnvelope.self),
  forms(PushAlertSummary.self), forms(PushTaskRunSummary.self), forms(RelaySendRequest.self),
  forms(RelayVerdict.self),
  // Live stream models (also fuzzed by fuzz-live-decoder) and the generic ones.
  forms(LiveStreamMessage.self), forms(ServerStatus.self), forms(LiveMetrics.self),
  forms(UpgradeJob.self), forms(AgentAuthority.self), forms(LiveStreamClientMessage.self),
  forms(JSONValue.self), forms(RFC3339Timestamp.self), forms(String.self),
  forms(APIErrorEnvelope.self),
]

func fuzzOne(_ bytes: [UInt8]) {
  var reader = FuzzInput(bytes)
  let choice = Int(reader.byte())
  let form = Int(reader.byte())
  let body = Data(reader.rest())
  if choice < models.count * 3 {
    let forms = models[choice % models.count]
    forms[form % forms.count](body)
    return
  }
  // The rest of the byte range: error bodies and the envelope reader.
  let status = 400 + form % 200
  let failure = APIFailure(status: status, body: body)
  _ = (failure.kind, failure.message, failure.code, failure.description)
  if case .envelope(let error) = failure.body {
    guard let encoded = try? WireJSON.encode(APIErrorEnvelope(error: error)) else {
      fail("an error body does not encode")
    }
    check(APIFailure(status: status, body: encoded) == failure, "an error body changes meaning")
  }
  do {
    let payload = try APIResponse<JSONValue>.payload(status: 200, body: body)
    check(
      (try? WireJSON.decode(APIResponse<JSONValue>.self, from: body).data) == payload,
      "APIResponse.payload and WireJSON disagree")
  } catch is ServerBeeModelsError {
  } catch {
    fail("APIResponse.payload: untyped error \(error)")
  }
}

runFuzzer(fuzzOne)
