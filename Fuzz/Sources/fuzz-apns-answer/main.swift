// The relay's APNs answer path (APNsPushProvider over ServerBeeHTTP2) on arbitrary server
// bytes: HTTP/2 frame reading, SETTINGS, flow control, HPACK decoding (Huffman, dynamic table,
// CONTINUATION), the response rules and the classification into a ProviderAnswer. One to four
// APNs requests go out before the first server byte. Invariants: every request gets a result;
// the results do not depend on how the bytes arrive (read sizes); a response has a final status,
// lowercase regular field names, a body within 64 KiB that matches its content-length; a
// response's answer follows Protocol/Relay.md §5 (200 with the request's apns-id → accepted,
// 429 → rate limited, 5xx → server error, 3xx/4xx only with a reason of 1…128 bytes, a foreign
// apns-id → malformed); a request without a response is answered network failure, malformed
// reply, or sent again.
import FuzzSupport
@_spi(Fuzzing) import ServerBeeRelay

let eventIDs = [
  "0b7c6a52-8f0e-4a43-9d55-0c3f1e2a9b01", "1c8d7b63-9a1f-4b54-8e66-1d4a2f3b0c12",
  "2d9e8c74-ab20-4c65-9f77-2e5b3a4c1d23", "3eaf9d85-bc31-4d76-8a88-3f6c4b5d2e34",
]

func fuzzOne(_ bytes: [UInt8]) {
  var reader = FuzzInput(bytes)
  let control = reader.byte()
  let requests = Int(control & 3) + 1
  let readSizes = (0..<Int(control >> 5) + 1).map { _ in reader.int(in: 1...64) }
  let server = reader.rest()
  let ids = Array(eventIDs.prefix(requests))

  let whole = APNsPushProvider.replayAnswers(eventIDs: ids, serverBytes: server, readSizes: [])
  let pieces = APNsPushProvider.replayAnswers(
    eventIDs: ids, serverBytes: server, readSizes: readSizes)
  check(whole.count == requests, "\(whole.count) results for \(requests) requests")
  check(whole == pieces, "read sizes \(readSizes) change the result: \(whole) vs \(pieces)")

  for (id, result) in zip(ids, whole) {
    guard let status = result.status else {
      check(result.failure != nil, "neither a status nor a failure")
      check(
        result.failure?.hasSuffix("no result was recorded") != true, "a request never ended")
      switch result.answer {
      case nil, .networkFailure?, .malformedReply?: break
      case let other?: fail("a failure answered \(other)")
      }
      continue
    }
    check(result.failure == nil, "a response with a failure")
    check((200...999).contains(status), "final status \(status)")
    check(result.body.count <= 65_536, "a body of \(result.body.count) bytes")
    for field in result.fields {
      check(!field.name.hasPrefix(":"), "a pseudo-header in the response: \(field.name)")
      check(field.name == field.name.lowercased(), "an uppercase field name: \(field.name)")
    }
    if let length = result.fields.first(where: { $0.name == "content-length" }) {
      check(
        Int(length.value) == result.body.count,
        "content-length \(length.value) for \(result.body.count) bytes")
    }
    let foreignID = result.fields.first { $0.name == "apns-id" }.map { $0.value.lowercased() != id }
    guard let answer = result.answer else { fail("a response without an answer") }
    if foreignID == true {
      check(answer == .malformedReply, "a foreign apns-id answered \(answer)")
      continue
    }
    switch answer {
    case .accepted: check(status == 200, "accepted with \(status)")
    case .rateLimited: check(status == 429, "rate limited with \(status)")
    case .serverError(let code): check(code == status && (500..<600).contains(code), "5xx \(code)")
    case .unregistered: check(status == 410, "unregistered with \(status)")
    case .badDeviceToken: check((300..<500).contains(status), "bad token with \(status)")
    case .rejected(let code, let reason):
      check(code == status && (300..<500).contains(code), "rejected with \(code)")
      check((1...128).contains(reason.utf8.count), "a reason of \(reason.utf8.count) bytes")
    case .malformedReply:
      check(
        !(status == 200 || status == 429 || (500..<600).contains(status)), "malformed \(status)")
    case .networkFailure: fail("a response answered network failure")
    }
    if status == 200 { check(answer == .accepted, "200 answered \(answer)") }
  }
}

runFuzzer(fuzzOne)
