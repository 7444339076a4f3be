// The client's response reader (SocketHTTPTransport): head after any 1xx, then a
// content-length, chunked or close-delimited body, bounded by a size limit. Invariants: errors
// are ServerBeeTransportError with malformedHTTPHead, responseTooLarge or connectionLost only;
// the result does not depend on how the bytes arrive (read sizes); HEAD, 204 and 304 have no
// body; a body fits the limit and matches a content-length of digits only; a response
// re-sent with a content-length, or chunked in other sizes, reads back the same.
import Foundation
import FuzzSupport
@_spi(Fuzzing) import ServerBeeSocketTransport
import ServerBeeTransport

let allowedCodes: Set<ServerBeeTransportError.Code> = [
  .malformedHTTPHead, .responseTooLarge, .connectionLost,
]

enum Outcome: Equatable {
  case response(HTTPResponse)
  case failure(ServerBeeTransportError.Code)
}

func read(_ bytes: [UInt8], readSizes: [Int], method: HTTPMethod, limit: Int) -> Outcome {
  do {
    return .response(
      try SocketHTTPTransport.readResponse(
        from: bytes, readSizes: readSizes, method: method, limit: limit))
  } catch let error as ServerBeeTransportError {
    check(allowedCodes.contains(error.code), "unexpected error code \(error.code)")
    return .failure(error.code)
  } catch {
    fail("untyped error \(error)")
  }
}

func serialize(_ response: HTTPResponse, chunks: [Int]?) -> [UInt8] {
  var headers = response.headers
  headers["content-length"] = nil
  headers["transfer-encoding"] = nil
  let body = Array(response.body)
  var payload: [UInt8]
  if let chunks {
    headers["transfer-encoding"] = "chunked"
    payload = []
    var offset = 0
    var index = 0
    while offset < body.count {
      let size = min(max(1, chunks[index % chunks.count]), body.count - offset)
      payload += Array((String(size, radix: 16) + "\r\n").utf8) + body[offset..<(offset + size)]
      payload += [13, 10]
      offset += size
      index += 1
    }
    payload += Array("0\r\n\r\n".utf8)
  } else {
    headers["content-length"] = String(body.count)
    payload = body
  }
  var text = "HTTP/1.1 \(response.status) OK\r\n"
  for (name, value) in headers.fields.sorted(by: { $0.key < $1.key }) {
    text += "\(name): \(value)\r\n"
  }
  return Array((text + "\r\n").utf8) + payload
}

func fuzzOne(_ bytes: [UInt8]) {
  var reader = FuzzInput(bytes)
  let control = reader.byte()
  let method: HTTPMethod = control & 1 == 0 ? .get : .head
  let limit = control & 2 == 0 ? 1 << 20 : 32
  let readSizes = (0..<Int(control >> 5) + 1).map { _ in reader.int(in: 1...64) }
  let input = reader.rest()

  let whole = read(input, readSizes: [], method: method, limit: limit)
  let pieces = read(input, readSizes: readSizes, method: method, limit: limit)
  check(whole == pieces, "read sizes \(readSizes) change the result: \(whole) vs \(pieces)")
  guard case .response(let response) = whole else { return }

  check(response.status >= 200 && response.status <= 999, "status \(response.status)")
  check(response.body.count <= limit, "a body over the limit")
  if method == .head || response.status == 204 || response.status == 304 {
    check(response.body.isEmpty, "a body where none is allowed")
    return
  }
  let chunked = response.headers["transfer-encoding"]?.lowercased().contains("chunked") == true
  if !chunked, let length = response.headers["content-length"] {
    check(length.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }, "content-length \(length)")
    check(Int(length) == response.body.count, "the body does not match content-length")
  }
  // The same response, re-sent with a content-length and chunked in the fuzzer's sizes.
  for chunks in [nil, readSizes] {
    let again = read(
      serialize(response, chunks: chunks), readSizes: [], method: method, limit: limit)
    guard case .response(var reread) = again else {
      fail("a re-sent response does not read: \(again)")
    }
    reread.headers["content-length"] = response.headers["content-length"]
    reread.headers["transfer-encoding"] = response.headers["transfer-encoding"]
    check(reread == response, "a re-sent response reads differently")
  }
}

runFuzzer(fuzzOne)
