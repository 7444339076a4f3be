import ServerBeeHTTP2
import Testing

/// The client's receive path on fixed server bytes (`HTTP2ClientConnection.replay`, what the
/// fuzz target `fuzz-apns-answer` drives): results that do not depend on read sizes, and the
/// regressions the fuzzer found.
@Suite struct HTTP2ReplayTests {
  /// One frame: length, type, flags, stream, payload (RFC 9113 §4.1).
  static func frame(_ type: UInt8, _ flags: UInt8, _ stream: UInt32, _ payload: [UInt8])
    -> [UInt8]
  {
    let length = UInt32(payload.count)
    return [
      UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff), type, flags,
    ]
      + [
        UInt8(stream >> 24), UInt8(stream >> 16 & 0xff), UInt8(stream >> 8 & 0xff),
        UInt8(stream & 0xff),
      ]
      + payload
  }

  /// A literal field without indexing and with a new name (RFC 7541 §6.2.2), no Huffman.
  static func literal(_ name: String, _ value: String) -> [UInt8] {
    [0x00, UInt8(name.utf8.count)] + Array(name.utf8) + [UInt8(value.utf8.count)]
      + Array(value.utf8)
  }

  /// The server's SETTINGS (none) and its ACK of ours.
  static let settings = frame(0x4, 0, 0, []) + frame(0x4, 0x1, 0, [])
  static let request = HTTP2Request(method: "POST", path: "/echo", body: [1, 2, 3])

  static func replay(_ bytes: [UInt8], readSizes: [Int] = []) -> Result<HTTP2Response, HTTP2Error> {
    HTTP2ClientConnection.replay(requests: [request], serverBytes: bytes, readSizes: readSizes)[0]
  }

  @Test func answerIsTheSameWhateverTheReadSizes() throws {
    // :status 200 (static index 8), a field, a body of 2 bytes in two DATA frames.
    let bytes =
      Self.settings + Self.frame(0x1, 0x4, 1, [0x88] + Self.literal("apns-id", "abc"))
      + Self.frame(0x0, 0, 1, [7]) + Self.frame(0x0, 0x1, 1, [8])
    let whole = try Self.replay(bytes).get()
    #expect(whole.status == 200)
    #expect(whole.headers.map { [$0.name, $0.value] } == [["apns-id", "abc"]])
    #expect(whole.body == [7, 8])
    for sizes in [[1], [2, 9], [5, 1, 30]] {
      #expect(try Self.replay(bytes, readSizes: sizes).get() == whole)
    }
  }

  @Test func endOfTheBytesIsALostConnection() {
    guard case .failure(.connectionLost) = Self.replay(Self.settings) else {
      Issue.record("expected connectionLost")
      return
    }
  }

  /// Found by `fuzz-apns-answer`: trailers with an uppercase name were accepted, although the
  /// header block refuses one (RFC 9113 §8.2.1).
  @Test(arguments: ["x-traIler", ":path"]) func trailersWithAnUppercaseOrPseudoNameAreMalformed(
    name: String
  ) throws {
    let bytes =
      Self.settings + Self.frame(0x1, 0x4, 1, [0x88]) + Self.frame(0x0, 0, 1, [7])
      + Self.frame(0x1, 0x5, 1, Self.literal(name, "t"))
    #expect(
      Self.replay(bytes)
        == .failure(.malformedResponse("a pseudo-header or an uppercase name in the trailers")))
    let lowercase =
      Self.settings + Self.frame(0x1, 0x4, 1, [0x88]) + Self.frame(0x0, 0, 1, [7])
      + Self.frame(0x1, 0x5, 1, Self.literal("x-trailer", "t"))
    let response = try Self.replay(lowercase).get()
    #expect(response.headers.map { [$0.name, $0.value] } == [["x-trailer", "t"]])
    #expect(response.body == [7])
  }
}
