// The bounded HTTP/1.1 head parser (request and response) and the permessage-deflate
// negotiation of the WebSocket handshake. Invariants: the head length never exceeds the input
// or the limit and ends at CRLFCRLF; a parsed head serializes to bytes that parse to the same
// head (version included); whatever the server answers to any offer, the client accepts it
// and reads the same parameters; a request the server upgrades gets a 101 the client accepts.
import FuzzSupport
@_spi(Fuzzing) import ServerBeeSocketTransport
import ServerBeeTransport

func fuzzOne(_ bytes: [UInt8]) {
  let (maxHeadBytes, maxHeaderCount) = (2048, 16)
  if let length = try? HTTPFuzzing.headLength(
    in: bytes, maxHeadBytes: maxHeadBytes, maxHeaderCount: maxHeaderCount)
  {
    check(length <= bytes.count && length <= maxHeadBytes, "bad head length")
    check(
      length >= 4 && bytes[(length - 4)..<length].elementsEqual([13, 10, 13, 10]), "no CRLFCRLF")
  }
  if let request = try? HTTPFuzzing.parseRequest(
    bytes, maxHeadBytes: maxHeadBytes, maxHeaderCount: maxHeaderCount)
  {
    let again = try? HTTPFuzzing.parseRequest(request.serialized)
    check(again == request, "request round trip differs: \(describe(request.serialized))")
    checkUpgrade(request)
  }
  if let response = try? HTTPFuzzing.parseResponse(
    bytes, maxHeadBytes: maxHeadBytes, maxHeaderCount: maxHeaderCount)
  {
    let again = try? HTTPFuzzing.parseResponse(response.serialized)
    check(again == response, "response round trip differs: \(describe(response.serialized))")
  }
  let text = String(decoding: bytes, as: UTF8.self)
  if let negotiated = HTTPFuzzing.negotiateDeflate(offers: text) {
    switch negotiated.client {
    case .success(let read):
      check(read == negotiated.server, "server chose \(negotiated.server), client read \(read)")
    case .failure(let refusal):
      fail("the client refuses the answer \(negotiated.answer.debugDescription): \(refusal)")
    }
  }
  _ = try? HTTPFuzzing.readDeflateAnswer(text)
}

/// A request the server accepts as an upgrade must get a 101 the client accepts.
func checkUpgrade(_ request: HTTPFuzzing.Request) {
  guard let (key, response) = try? HTTPFuzzing.acceptUpgrade(request) else { return }
  guard let parsed = try? HTTPFuzzing.parseResponse(response.serialized) else {
    fail("our own 101 does not parse: \(describe(response.serialized))")
  }
  let offered = request.headers["sec-websocket-extensions"] != nil
  do {
    _ = try HTTPFuzzing.checkUpgradeResponse(parsed, key: key, offeredCompression: offered)
  } catch {
    fail("the client refuses the server's 101 for key \(key.debugDescription): \(error)")
  }
}

runFuzzer(fuzzOne)
