// Fuzzes the bounded HTTP/1.1 head parser (request and response). Properties: never crash;
// a parsed head serializes to bytes that parse to the same head; the head length never exceeds
// the input or the limit.
import CLibFuzzer

@testable import ServerBeeTransport

#if canImport(Glibc)
  import Glibc
#endif

func fuzzOne(_ bytes: [UInt8]) {
  let limits = HTTPHeadCodec.Limits(maxHeadBytes: 2048, maxHeaderCount: 16)
  if let length = try? HTTPHeadCodec.headLength(in: bytes, limits: limits) {
    precondition(length <= bytes.count && length <= limits.maxHeadBytes, "bad head length")
  }
  if let request = try? HTTPHeadCodec.parseRequest(bytes, limits: limits) {
    let again = try? HTTPHeadCodec.parseRequest(request.serialized)
    precondition(again == request, "request round trip differs")
  }
  if let response = try? HTTPHeadCodec.parseResponse(bytes, limits: limits) {
    let again = try? HTTPHeadCodec.parseResponse(response.serialized)
    precondition(again == response, "response round trip differs")
  }
  _ = PerMessageDeflateParameters.negotiate(offers: String(decoding: bytes, as: UTF8.self))
  _ = try? PerMessageDeflateParameters.acceptResponse(String(decoding: bytes, as: UTF8.self))
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
  guard let data else { return 0 }
  fuzzOne(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
exit(status)
