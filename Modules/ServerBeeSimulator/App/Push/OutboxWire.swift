import Foundation
import ServerBeeModels

/// The outbox's JSON written and read without the generic encoder and Foundation's
/// `JSONDecoder` (per push, sealing wrote the envelope through `WireJSON.encode`,
/// each attempt decoded it again with `JSONDecoder` and encoded the relay request, and each
/// answer was decoded with `JSONDecoder`; together about a third of the simulator's 2.3 M
/// instructions per push).
///
/// Each function gives the bytes or values of the generic path it replaces
/// (`OutboxWireTests` compares them): the envelope and the request are written key by key as
/// `WireJSON.encode` writes them, and a stored envelope or a relay answer is read by hand only
/// in the exact form this simulator and `serverbee-relay` write (plain text: printable ASCII
/// without `"` or `\`); anything else goes through `WireJSON.decode` as before.
enum OutboxWire {
  /// `WireJSON.encode(envelope)` as text, the stored `envelope_json`.
  static func envelopeJSON(_ envelope: PushEnvelope) -> String {
    var writer = WireWriter(capacity: 256 + envelope.ciphertext.utf8.count)
    writer.raw("{\"version\":")
    writer.int(envelope.version)
    writer.raw(",\"key_id\":")
    writer.string(envelope.keyID)
    writer.raw(",\"identity\":")
    writer.string(envelope.identity)
    writer.raw(",\"nonce\":")
    writer.string(envelope.nonce)
    writer.raw(",\"ciphertext\":")
    writer.string(envelope.ciphertext)
    writer.raw("}")
    return writer.text
  }

  /// The relay request of a job: `WireJSON.encode(RelaySendRequest(…))` with the envelope
  /// decoded from `envelope_json`; `nil` when there is none or it does not decode.
  static func relayBody(_ job: OutboxRow) throws -> Data? {
    guard var text = job.envelopeJSON else { return nil }
    var writer = WireWriter(capacity: 160 + text.utf8.count)
    writer.raw("{\"device_token\":")
    writer.string(job.deviceToken)
    writer.raw(",\"environment\":")
    writer.string(job.environment)
    writer.raw(",\"event_id\":")
    writer.string(job.eventID)
    writer.raw(",\"expires_at\":")
    writer.int(job.expiresAt)
    writer.raw(",\"envelope\":")
    let plain = text.withUTF8 { bytes -> Bool in
      guard isPlainEnvelope(bytes) else { return false }
      writer.verbatim(bytes)
      return true
    }
    if !plain {
      guard let envelope = try? WireJSON.decode(PushEnvelope.self, from: Data(text.utf8)) else {
        return nil
      }
      try writer.encoded(envelope)
    }
    writer.raw("}")
    return writer.data
  }

  /// A relay's answer as `WireJSON.decode(RelayVerdict.self, from:)` reads it; `nil` where
  /// that throws.
  static func verdict(_ body: Data) -> RelayVerdict? {
    let quick = body.withUnsafeBytes { raw -> RelayVerdict? in
      plainVerdict(raw.assumingMemoryBound(to: UInt8.self))
    }
    return quick ?? (try? WireJSON.decode(RelayVerdict.self, from: body))
  }

  /// `{"outcome":"…","reason":"…","device_invalid":true|false}` with plain strings, what
  /// `serverbee-relay` writes; `nil` for anything else.
  static func plainVerdict(_ bytes: UnsafeBufferPointer<UInt8>) -> RelayVerdict? {
    var reader = PlainReader(bytes: bytes)
    guard reader.literal("{\"outcome\":"), let outcome = reader.plainString(),
      reader.literal(",\"reason\":"), let reason = reader.plainString(),
      reader.literal(",\"device_invalid\":")
    else { return nil }
    let invalid: Bool
    if reader.literal("true") {
      invalid = true
    } else if reader.literal("false") {
      invalid = false
    } else {
      return nil
    }
    guard reader.literal("}"), reader.atEnd else { return nil }
    return RelayVerdict(
      outcome: PushOutcome(rawValue: outcome), reason: PushDeliveryReason(rawValue: reason),
      deviceInvalid: invalid)
  }

  /// Whether `bytes` are an envelope exactly as ``envelopeJSON(_:)`` writes one with plain
  /// strings: then decoding and encoding it again gives the same bytes.
  static func isPlainEnvelope(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var reader = PlainReader(bytes: bytes)
    return reader.literal("{\"version\":") && reader.plainInteger()
      && reader.literal(",\"key_id\":") && reader.skipPlainString()
      && reader.literal(",\"identity\":") && reader.skipPlainString()
      && reader.literal(",\"nonce\":") && reader.skipPlainString()
      && reader.literal(",\"ciphertext\":") && reader.skipPlainString()
      && reader.literal("}") && reader.atEnd
  }
}

/// A cursor over JSON in one fixed form: constants, plain strings (printable ASCII without
/// `"` or `\`, which every JSON reader reads as the bytes between the quotes) and integers
/// without sign or leading zero that fit an `Int`.
private struct PlainReader {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  var atEnd: Bool { index == bytes.count }

  mutating func literal(_ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard let base = bytes.baseAddress, bytes.count - index >= count,
      memcmp(base + index, text.utf8Start, count) == 0
    else { return false }
    index += count
    return true
  }

  /// The bytes between the quotes of a plain string, consumed.
  mutating func plainRange() -> Range<Int>? {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
    let start = index + 1
    var end = start
    while end < bytes.count {
      let byte = bytes[end]
      if byte == UInt8(ascii: "\"") { break }
      guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
      end += 1
    }
    guard end < bytes.count else { return nil }
    index = end + 1
    return start..<end
  }

  mutating func skipPlainString() -> Bool { plainRange() != nil }

  mutating func plainString() -> String? {
    plainRange().map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
  }

  /// `0` or `[1-9][0-9]{0,17}`.
  mutating func plainInteger() -> Bool {
    let start = index
    while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9")
    {
      index += 1
    }
    let length = index - start
    guard length >= 1, length <= 18, length == 1 || bytes[start] != UInt8(ascii: "0") else {
      return false
    }
    return true
  }
}
