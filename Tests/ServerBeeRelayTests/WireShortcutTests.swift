import Foundation
import ServerBeeModels
import ServerBeeTestSupport
import Testing

@testable import ServerBeeRelay

/// The hand-written shortcuts of the `/v1/send` path against the code they replace:
/// the media-type checks against Foundation's trimming and lowercasing, the verdict and payload
/// bytes against WireJSON, the byte scans against byte-by-byte loops.
@Suite struct WireShortcutTests {
  static let contentTypes = [
    "application/json", "Application/JSON", "application/json; charset=utf-8",
    " \tapplication/json\t ", ";application/json", ";;application/json;x", "; application/json",
    "application/json;", "application/jsonx", "application/json\u{0B}", "\u{0C}application/json",
    "text/json", "", ";", " ; ", "application/json ,", "application/\u{00A0}json",
    "\u{00A0}application/json", "application/json\u{2003}", "APPLICATION/JSON;;",
    "application/json\u{301}", "applicat\u{0130}on/json", "appl\u{212A}ication/json",
    ";\u{301}application/json", "a;application/json", "application/json\r\n",
  ]

  @Test(arguments: contentTypes)
  func theMediaTypeCheckAgreesWithTheReference(_ value: String) {
    #expect(MediaType.isJSON(value) == MediaType.referenceIsJSON(value))
  }

  @Test(arguments: ["identity", " IDENTITY\t", "gzip", "", "identity;", "\u{00A0}identity"])
  func theEncodingCheckAgreesWithTheReference(_ value: String) {
    #expect(MediaType.isIdentity(value) == MediaType.referenceIsIdentity(value))
  }

  @Test func randomASCIIValuesAgreeWithTheReference() {
    var generator = SeededRandom(seed: 24)
    let alphabet = Array("application/json; \t\u{0B}\u{0C}AJSONxX,=".unicodeScalars)
    for _ in 0..<5000 {
      let length = Int.random(in: 0...24, using: &generator)
      var text = ""
      for _ in 0..<length {
        text.unicodeScalars.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
      }
      if Bool.random(using: &generator) { text = "application/json" + text }
      #expect(MediaType.isJSON(text) == MediaType.referenceIsJSON(text), "\(Array(text.utf8))")
      #expect(MediaType.isIdentity(text) == MediaType.referenceIsIdentity(text))
    }
  }

  @Test(arguments: [
    "/v1/send", "/v1/send?x=1", "?x", "??", "", "/a?b?c", "/é?\u{301}", "/a\u{301}",
  ])
  func thePathIsTheTargetSplitAtItsQuery(_ target: String) {
    #expect(
      RelayCore.path(of: target) == String(target.split(separator: "?", maxSplits: 1).first ?? ""))
  }

  static let verdicts: [RelayVerdict] = [
    RelayVerdict(outcome: .accepted, reason: .accepted),
    RelayVerdict(outcome: .permanent, reason: .unregistered, deviceInvalid: true),
    RelayVerdict(outcome: .retryable, reason: .networkUnavailable),
    RelayVerdict(outcome: PushOutcome(rawValue: "odd\"one"), reason: .expired),
    RelayVerdict(outcome: .expired, reason: PushDeliveryReason(rawValue: "back\\slash\n")),
    RelayVerdict(outcome: .expired, reason: PushDeliveryReason(rawValue: "caf\u{E9}")),
  ]

  @Test(arguments: verdicts)
  func theVerdictBytesAreWhatWireJSONWrites(_ verdict: RelayVerdict) throws {
    #expect(RelayAnswer.encode(verdict) == Array(try WireJSON.encode(verdict)))
  }

  @Test func thePayloadIsWhatWireJSONWritesForTheEnvelope() throws {
    let envelopes = [
      PushEnvelope(
        version: 1, keyID: SendBody.keyID, identity: SendBody.identity, nonce: SendBody.nonce,
        ciphertext: SendBody.ciphertext),
      PushEnvelope(version: 7, keyID: "k\"", identity: "i", nonce: "n\u{1}", ciphertext: "c"),
      PushEnvelope(version: -2, keyID: "", identity: "é", nonce: "/", ciphertext: "\\"),
    ]
    for envelope in envelopes {
      let payload = RelayDelivery.payload(for: envelope)
      let prefix =
        #"{"aps":{"alert":{"title":"ServerBee","body":"Open ServerBee to view this "#
        + #"notification."},"mutable-content":1,"sound":"default"},"serverbee_envelope":"#
      let expected = Data(prefix.utf8) + (try WireJSON.encode(envelope)) + Data("}".utf8)
      #expect(payload == expected)
    }
  }

  @Test func aValidatedRequestGetsThePayloadOfTheCheckedPath() throws {
    let request = try #require(SendValidator.parse(SendBody().bytes))
    let delivery = RelayDelivery(
      request: request, topic: "t", body: Data(), clientAddress: "", receivedAt: 0,
      envelopeIsPlain: true)
    #expect(delivery.payload == RelayDelivery.payload(for: request.envelope))
    #expect(delivery == RelayDelivery(request: request, topic: "t"))
  }

  @Test func theWordScansAgreeWithByteLoops() {
    var generator = SeededRandom(seed: 7)
    let interesting: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x5C, 0x5B, 0x7E, 0x7F, 0x80, 0xFF]
    for _ in 0..<4000 {
      let length = Int.random(in: 0...40, using: &generator)
      var bytes = (0..<length).map { _ in UInt8.random(in: 0x23...0x5B, using: &generator) }
      if length > 0, Bool.random(using: &generator) {
        bytes[Int.random(in: 0..<length, using: &generator)] =
          interesting[Int.random(in: 0..<interesting.count, using: &generator)]
      }
      let plain = !bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
      let start = length == 0 ? 0 : Int.random(in: 0...length, using: &generator)
      let run =
        bytes[start...].firstIndex { $0 < 0x20 || $0 >= 0x80 || $0 == 0x22 || $0 == 0x5C }
        .map { $0 - start } ?? (length - start)
      bytes.withUnsafeBytes { raw in
        #expect(PlainText.isPlainJSON(raw) == plain, "\(bytes)")
        #expect(PlainText.plainASCIIRun(in: raw, from: start) == run, "\(bytes) from \(start)")
      }
    }
  }
}
