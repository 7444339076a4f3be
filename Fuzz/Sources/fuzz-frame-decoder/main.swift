// Fuzzes the RFC 6455 frame decoder and message assembler (both roles, with and without
// permessage-deflate). Properties: never crash or hang; any decoded frame re-encodes to bytes
// that decode to the same frame.
import CLibFuzzer

@testable import ServerBeeTransport

#if canImport(Glibc)
  import Glibc
#endif

func fuzzOne(_ bytes: [UInt8]) {
  guard let control = bytes.first else { return }
  let role: WebSocketRole = control & 1 == 0 ? .client : .server
  let compression = control & 2 != 0
  let maxSize = control & 4 == 0 ? 1 << 16 : 64
  let chunk = Int(control >> 3) + 1
  var decoder = WebSocketFrameDecoder(
    role: role, maxFramePayload: maxSize, allowsCompression: compression)
  let inflater = compression ? try? RawInflater() : nil
  var assembler = WebSocketMessageAssembler(maxMessageSize: maxSize, inflater: inflater)
  let input = bytes.dropFirst()
  var index = input.startIndex
  do {
    while index < input.endIndex {
      let end = min(index + chunk, input.endIndex)
      decoder.append(input[index..<end])
      index = end
      while let frame = try decoder.nextFrame() {
        let key: (UInt8, UInt8, UInt8, UInt8)? = role == .server ? (9, 8, 7, 6) : nil
        var again = WebSocketFrameDecoder(
          role: role, maxFramePayload: maxSize, allowsCompression: compression)
        again.append(frame.encoded(maskKey: key))
        let decodedAgain = try again.nextFrame()
        precondition(decodedAgain == frame, "re-encoded frame differs")
        _ = try assembler.handle(frame)
      }
    }
  } catch {
    // Typed protocol failures are the expected outcome for bad input.
  }
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
  guard let data else { return 0 }
  fuzzOne(Array(UnsafeBufferPointer(start: data, count: size)))
  return 0
}
exit(status)
