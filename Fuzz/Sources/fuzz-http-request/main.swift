// The server's request framing (HTTPServerConnection: head, then a content-length body,
// keep-alive requests back to back). Invariants: rejections are 400/413/431/501 only; a
// complete request uses exactly its head and content-length bytes, with a length of digits
// only; every shorter prefix of a complete request is incomplete (no decision before the
// bytes arrive); a parsed request re-serializes to the same request; an accepted upgrade gets
// a 101 the client accepts.
import FuzzSupport
@_spi(Fuzzing) import ServerBeeSocketTransport
import ServerBeeTransport

let rejectStatuses: Set<Int> = [400, 413, 431, 501]

func fuzzOne(_ bytes: [UInt8]) {
  var reader = FuzzInput(bytes)
  let control = reader.byte()
  let maxBodySize = control & 1 == 0 ? 1 << 20 : 16
  let (maxHeadBytes, maxHeaderCount) = control & 2 == 0 ? (16 * 1024, 100) : (256, 4)
  let probe = Int(reader.byte())
  var buffer = reader.rest()
  func frame(_ bytes: [UInt8]) -> HTTPFuzzing.Framing {
    HTTPFuzzing.frameRequest(
      bytes, maxBodySize: maxBodySize, maxHeadBytes: maxHeadBytes, maxHeaderCount: maxHeaderCount)
  }
  // Keep-alive: requests back to back, as the connection parses them.
  for _ in 0..<8 {
    switch frame(buffer) {
    case .incomplete:
      return
    case .reject(let status):
      check(rejectStatuses.contains(status), "rejected with \(status)")
      return
    case .complete(let head, let body, let consumed):
      check(consumed <= buffer.count && consumed > body.count, "consumed \(consumed)")
      let headBytes = Array(buffer[0..<(consumed - body.count)])
      check(Array(buffer[(consumed - body.count)..<consumed]) == body, "the body is not in place")
      if let length = head.headers["content-length"] {
        check(length.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }, "content-length \(length)")
        check(Int(length) == body.count && body.count <= maxBodySize, "body length differs")
      } else {
        check(body.isEmpty, "a body without content-length")
      }
      check(head.headers["transfer-encoding"] == nil, "transfer-encoding accepted")
      // No decision before the request's last byte: a prefix is always incomplete.
      let cut = probe % consumed
      if case .incomplete = frame(Array(buffer[0..<cut])) {
      } else {
        fail("a \(cut)-byte prefix of a \(consumed)-byte request is not incomplete")
      }
      // The head re-serializes to itself (version included). Default head limits: invalid
      // UTF-8 in a value comes back as U+FFFD, so the text may grow.
      let again = HTTPFuzzing.frameRequest(head.serialized + body, maxBodySize: maxBodySize)
      check(
        again == .complete(head, body: body, consumed: head.serialized.count + body.count),
        "request round trip differs: \(describe(headBytes)) → \(describe(head.serialized))")
      checkUpgrade(head)
      buffer.removeFirst(consumed)
    }
  }
}

/// A request the server accepts as an upgrade must get a 101 the client accepts.
func checkUpgrade(_ request: HTTPFuzzing.Request) {
  guard let (key, response) = try? HTTPFuzzing.acceptUpgrade(request) else { return }
  guard let parsed = try? HTTPFuzzing.parseResponse(response.serialized) else {
    fail("our own 101 does not parse: \(describe(response.serialized))")
  }
  let offered = request.headers["sec-websocket-extensions"] != nil
  do {
    let compressed = try HTTPFuzzing.checkUpgradeResponse(
      parsed, key: key, offeredCompression: offered)
    check(compressed == (response.headers["sec-websocket-extensions"] != nil), "compression")
  } catch {
    fail("the client refuses the server's 101 for key \(key.debugDescription): \(error)")
  }
}

runFuzzer(fuzzOne)
