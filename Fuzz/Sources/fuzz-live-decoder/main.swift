// The live-stream fast decoder (RealtimeStream's FastFrameReader), differential against the
// Codable models (LiveStreamMessage(decoding:)), as LiveFrameDecoderDifferentialTests compares
// them: the same message (re-encoded with the server writer), or both an error with the same
// code. Traps when they disagree, when the fast path answers differently from the public
// decoder, or when an error is not a ServerBeeModelsError.
import Foundation
import FuzzSupport
@_spi(Fuzzing) import RealtimeStream
import ServerBeeModels

enum Outcome: Equatable, CustomStringConvertible {
  case message(String)
  /// Unknown frames keep their JSON in a value whose member order is not stable: compared as
  /// values.
  case unknown(LiveStreamMessage)
  case failure(ServerBeeModelsError.Code)

  var description: String {
    switch self {
    case .message(let text): return "message \(text.prefix(300))"
    case .unknown(let message): return "unknown \(message.type ?? "(no type)")"
    case .failure(let code): return "failure \(code)"
    }
  }
}

func outcome(_ body: () throws -> LiveStreamMessage) -> Outcome {
  do {
    let message = try body()
    if case .unknown = message { return .unknown(message) }
    guard let encoded = try? WireJSON.encode(message) else {
      fail("a decoded message does not encode: \(message)")
    }
    return .message(String(decoding: encoded, as: UTF8.self))
  } catch let error as ServerBeeModelsError {
    return .failure(error.code)
  } catch {
    fail("untyped error \(error)")
  }
}

func fuzzOne(_ bytes: [UInt8]) {
  let data = Data(bytes)
  let reference = outcome { try LiveStreamMessage(decoding: data) }
  let decoded = outcome { try LiveFrameDecoder.decode(data) }
  check(decoded == reference, "decode: \(decoded) but models: \(reference) for \(describe(bytes))")
  if let fast = LiveFrameDecoder.fastPathMessage(bytes) {
    let fastOutcome = outcome { fast }
    check(
      fastOutcome == reference,
      "fast path: \(fastOutcome) but models: \(reference) for \(describe(bytes))")
  }
}

runFuzzer(fuzzOne)
