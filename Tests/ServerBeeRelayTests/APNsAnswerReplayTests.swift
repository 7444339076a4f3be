import Testing

@_spi(Fuzzing) @testable import ServerBeeRelay

/// The APNs answer path without a socket (`APNsPushProvider.replayAnswers`, what the fuzz
/// target `fuzz-apns-answer` drives): server bytes → HTTP/2 → HPACK → the provider's answer.
@Suite struct APNsAnswerReplayTests {
  static let eventIDs = [
    "0b7c6a52-8f0e-4a43-9d55-0c3f1e2a9b01", "1c8d7b63-9a1f-4b54-8e66-1d4a2f3b0c12",
  ]

  static func frame(_ type: UInt8, _ flags: UInt8, _ stream: UInt8, _ payload: [UInt8]) -> [UInt8] {
    [0, UInt8(payload.count >> 8), UInt8(payload.count & 0xff), type, flags, 0, 0, 0, stream]
      + payload
  }

  /// A literal field without indexing, its name indexed in the static table (RFC 7541 §6.2.2;
  /// the index is a 4-bit-prefix integer, §5.1).
  static func literal(nameIndex: UInt8, _ value: String) -> [UInt8] {
    let index: [UInt8] = nameIndex < 15 ? [nameIndex] : [15, nameIndex - 15]
    return index + [UInt8(value.utf8.count)] + Array(value.utf8)
  }

  /// A literal field without indexing and with a new name.
  static func literal(_ name: String, _ value: String) -> [UInt8] {
    [0, UInt8(name.utf8.count)] + Array(name.utf8) + [UInt8(value.utf8.count)] + Array(value.utf8)
  }

  @Test func unregisteredAndAcceptedAnswersAreClassified() {
    let body = Array(#"{"reason":"Unregistered","timestamp":1800000000000}"#.utf8)
    let bytes =
      Self.frame(0x4, 0, 0, []) + Self.frame(0x4, 0x1, 0, [])
      + Self.frame(0x1, 0x5, 3, [0x88] + Self.literal("apns-id", Self.eventIDs[1]))
      + Self.frame(
        0x1, 0x4, 1,
        Self.literal(nameIndex: 8, "410") + Self.literal("apns-id", Self.eventIDs[0])
          + Self.literal(nameIndex: 28, String(body.count)))
      + Self.frame(0x0, 0x1, 1, body)
    for sizes in [[], [1], [3, 17]] {
      let answers = APNsPushProvider.replayAnswers(
        eventIDs: Self.eventIDs, serverBytes: bytes, readSizes: sizes)
      #expect(answers.map(\.answer) == [.unregistered, .accepted])
      #expect(answers.map(\.status) == [410, 200])
    }
  }

  @Test func aForeignAPNsIDIsMalformedAndSilenceIsRetried() {
    let bytes =
      Self.frame(0x4, 0, 0, [])
      + Self.frame(0x1, 0x5, 1, [0x88] + Self.literal("apns-id", Self.eventIDs[1]))
    let answers = APNsPushProvider.replayAnswers(
      eventIDs: Self.eventIDs, serverBytes: bytes, readSizes: [])
    #expect(answers[0].answer == .malformedReply)
    // The server closed without answering the second: sent again on a new connection.
    #expect(answers[1].status == nil)
    #expect(answers[1].answer == nil)
    #expect(answers[1].failure?.hasPrefix("the connection was lost") == true)
  }
}
