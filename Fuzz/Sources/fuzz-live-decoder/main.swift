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
  /// Two messages agree when they are equal as values or re-encode to the same text. Values,
  /// because a `JSONValue` object inside a message (unknown evidence, say) keeps the member
  /// order its decoder saw, which differs between the fast path (wire order) and Foundation's
  /// `JSONDecoder`, and `JSONValue` equality ignores member order (comparing text alone reported
  /// such a frame in the first campaign); text, because a message holding NaN is not equal to
  /// itself.
  case message(LiveStreamMessage)
  /// Unknown frames keep their JSON in a value whose member order is not stable: compared as
  /// values.
  case unknown(LiveStreamMessage)
  case failure(ServerBeeModelsError.Code)

  static func == (lhs: Outcome, rhs: Outcome) -> Bool {
    switch (lhs, rhs) {
    case (.message(let a), .message(let b)):
      return a == b || (try? WireJSON.encode(a)) == (try? WireJSON.encode(b))
    case (.unknown(let a), .unknown(let b)): return a == b
    case (.failure(let a), .failure(let b)): return a == b
    default: return false
    }
  }

  var description: String {
    switch self {
    case .message(let message):
      let text = (try? WireJSON.encode(message)).map { String(decoding: $0, as: UTF8.self) }
      return "message \((text ?? "\(message)").prefix(300))"
    case .unknown(let message): return "unknown \(message.type ?? "(no type)")"
    case .failure(let code): return "failure \(code)"
    }
  }
}

func outcome(_ body: () throws -> LiveStreamMessage) -> Outcome {
  do {
    let message = try body()
    if case .unknown = message { return .unknown(message) }
    guard (try? WireJSON.encode(message)) != nil else {
      fail("a decoded message does not encode: \(message)")
    }
    return .message(message)
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
