import Foundation
import ServerBeeModels
import Testing

@testable import PushEnvelopeCrypto

/// `PushJSONReader` against the Codable path it shortcuts: on every input, the reader either
/// gives exactly what `JSONDecoder` gives or stays undecided, and the public entry points give
/// the same value or the same error code either way.
@Suite struct PushJSONReaderDifferentialTests {
  typealias Code = PushEnvelopeCryptoError.Code

  /// The known envelope as the server writes it.
  static let envelopeText = String(
    decoding: (try? WireJSON.encode(Known.envelope)) ?? Data(), as: UTF8.self)
  static let aps =
    #"{"alert":{"title":"ServerBee","body":"Open ServerBee to view this notification."},"#
    + #""mutable-content":1,"sound":"default"}"#

  static func payload(envelope: String = envelopeText, aps: String = aps) -> String {
    #"{"aps":"# + aps + #","serverbee_envelope":"# + envelope + "}"
  }

  /// The envelope text with one member's JSON replaced (`key` as the server writes it).
  static func envelope(replacing key: String, with member: String) -> String {
    let members = [
      #""version":1"#, #""key_id":"\#(Known.keyID)""#, #""identity":"\#(Known.identity)""#,
      #""nonce":"\#(Known.envelope.nonce)""#, #""ciphertext":"\#(Known.envelope.ciphertext)""#,
    ]
    let replaced = members.map { $0.hasPrefix(#""\#(key)":"#) ? member : $0 }
    return "{" + replaced.filter { !$0.isEmpty }.joined(separator: ",") + "}"
  }

  static let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
  static let veryDeep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)

  /// Valid, unusual and hostile APNs payloads (as text; invalid UTF-8 is added below).
  static let payloadTexts: [String] = {
    let base = payload()
    var texts = [
      base,
      // White space everywhere JSON allows it.
      " \t\r\n"
        + base.replacingOccurrences(of: ":", with: " :\n\t").replacingOccurrences(
          of: ",", with: " ,\r\n ") + " \n",
      base.replacingOccurrences(of: "{", with: "{ ").replacingOccurrences(of: "}", with: " }"),
      "\u{FEFF}" + base,
      base + "x", base + "{}", base + ",", String(base.dropLast()) + ",}",
      // Repeated, extra and escaped keys.
      payload() + "",
      #"{"serverbee_envelope":"# + envelopeText + #","serverbee_envelope":{"version":2}}"#,
      #"{"serverbee_envelope":{"version":2},"serverbee_envelope":"# + envelopeText + "}",
      payload(envelope: envelope(replacing: "key_id", with: #""key_id":"a","key_id":"b""#)),
      payload(
        envelope: envelope(
          replacing: "version", with: #""version":1,"extra":[1,{"a":null,"b":[true,false]}]"#)),
      #"{"serverbee_\u0065nvelope":"# + envelopeText + "}",
      payload(envelope: envelope(replacing: "nonce", with: #""n\u006fnce":"oKGio6Slpqeoqaqr""#)),
      #"{"aps":1,"aps":2,"x":"东京","y":"\ud83d\ude00","serverbee_envelope":"# + envelopeText
        + "}",
      // Escapes in values.
      payload(
        envelope: envelope(
          replacing: "key_id",
          with: #""key_id":"\u0030f8e7d6c-5b4a-4938-8271-6a5b4c3d2e1f""#)),
      payload(envelope: envelope(replacing: "key_id", with: #""key_id":"\/\"\\\b\f\n\r\t""#)),
      payload(envelope: envelope(replacing: "key_id", with: #""key_id":"\ud83d""#)),
      payload(envelope: envelope(replacing: "key_id", with: #""key_id":"\udc00\ud83d""#)),
      payload(envelope: envelope(replacing: "key_id", with: #""key_id":"\ud83d\u0041""#)),
      payload(envelope: envelope(replacing: "key_id", with: #""key_id":"\u0000""#)),
      payload(envelope: envelope(replacing: "key_id", with: #""key_id":"\x""#)),
      payload(envelope: envelope(replacing: "key_id", with: #""key_id":"\u12""#)),
      payload(envelope: envelope(replacing: "key_id", with: "\"key_id\":\"a\u{01}b\"")),
      payload(aps: #"{"a":"\x","b":"\u{01}"}"#.replacingOccurrences(of: "\\u{01}", with: "\u{01}")),
      // Numbers.
      payload(envelope: envelope(replacing: "version", with: #""version":1.0"#)),
      payload(envelope: envelope(replacing: "version", with: #""version":1e0"#)),
      payload(envelope: envelope(replacing: "version", with: #""version":-0"#)),
      payload(envelope: envelope(replacing: "version", with: #""version":01"#)),
      payload(envelope: envelope(replacing: "version", with: #""version":2"#)),
      payload(envelope: envelope(replacing: "version", with: #""version":-1"#)),
      payload(envelope: envelope(replacing: "version", with: #""version":999999999999999999"#)),
      payload(
        envelope: envelope(replacing: "version", with: #""version":99999999999999999999"#)),
      payload(envelope: envelope(replacing: "version", with: #""version":"1""#)),
      payload(envelope: envelope(replacing: "version", with: #""version":null"#)),
      payload(envelope: envelope(replacing: "version", with: #""version":true"#)),
      payload(envelope: envelope(replacing: "version", with: "")),
      payload(aps: #"{"a":1e999,"b":123456789012345678901234567890,"c":-0.5e-3}"#),
      payload(aps: #"{"a":[1,],"b":{"c":1,}}"#),
      payload(aps: #"{"a":01}"#), payload(aps: #"{"a":1.}"#), payload(aps: #"{"a":-}"#),
      payload(aps: #"{"a":tru}"#), payload(aps: #"{"a":nul}"#),
      // Types and missing keys.
      payload(envelope: envelope(replacing: "ciphertext", with: "")),
      payload(envelope: envelope(replacing: "nonce", with: #""nonce":null"#)),
      payload(envelope: envelope(replacing: "nonce", with: #""nonce":12"#)),
      payload(envelope: #""text""#), payload(envelope: "[]"), payload(envelope: "null"),
      payload(envelope: "{}"),
      // Nesting.
      payload(aps: deep), payload(aps: veryDeep),
      // Sizes: an envelope that re-serialises over 4096 bytes, a payload over 8192.
      payload(
        envelope: envelope(
          replacing: "identity",
          with: #""identity":""# + String(repeating: "a", count: 4000) + #"""#)),
      payload(aps: #"{"pad":""# + String(repeating: "p", count: 8200) + #""}"#),
      // Not a payload at all.
      "", " ", "{}", "[]", "null", "\"serverbee_envelope\"", "not json", "{", "{\"aps\"",
      "{\"aps\":", "{\"aps\":{}", "{\"aps\":{}}",
    ]
    // Truncations of the valid payload.
    texts += stride(from: 1, to: base.utf8.count, by: 41).map { String(base.utf8.prefix($0)) ?? "" }
    return texts
  }()

  static let payloads: [Data] = {
    var payloads = payloadTexts.map { Data($0.utf8) }
    let base = Array(payload().utf8)
    // Invalid UTF-8 inside the payload's `aps` and inside the key id, and a NUL byte.
    if let at = base.firstIndex(of: UInt8(ascii: "O")) {
      for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98], [0x00]] {
        var copy = base
        copy.replaceSubrange(at..<(at + 1), with: bad)
        payloads.append(Data(copy))
      }
    }
    let keyPayload = Array(
      payload(envelope: envelope(replacing: "key_id", with: #""key_id":"k""#)).utf8)
    if let at = keyPayload.lastIndex(of: UInt8(ascii: "k")) {
      var copy = keyPayload
      copy.replaceSubrange(at..<(at + 1), with: [0xE4, 0xB8])
      payloads.append(Data(copy))
    }
    return payloads
  }()

  @Test func readerAgreesWithJSONDecoderOnEveryAPNSPayload() {
    var decided = 0
    for (number, payload) in Self.payloads.enumerated() {
      let reference = Result { () throws(PushEnvelopeCryptoError) in
        try PushEnvelopeOpener.codableEnvelope(fromAPNSPayload: payload)
      }
      if let read = PushJSONReader.envelope(fromAPNSPayload: payload) {
        decided += 1
        #expect((try? reference.get()) == read, "payload #\(number)")
      }
      let opened = Result { () throws(PushEnvelopeCryptoError) in
        try PushEnvelopeOpener.envelope(fromAPNSPayload: payload)
      }
      let referenceOpened = Result { () throws(PushEnvelopeCryptoError) in
        try PushEnvelopeOpener.envelope(fromAPNSPayload: payload, usingReader: false)
      }
      #expect(Self.outcome(opened) == Self.outcome(referenceOpened), "payload #\(number)")
    }
    // The table exercises both halves: the reader decides the ordinary forms, and leaves the
    // unusual ones to JSONDecoder.
    #expect(decided >= 15)
    #expect(decided < Self.payloads.count - 40)
  }

  @Test(arguments: [
    (
      #"{"serverbee_envelope":{"version":1,"key_id":"a","key_id":"b","identity":"i","nonce":"n","ciphertext":"c"}}"#,
      "a"
    ),
    (
      #"{"serverbee_envelope":{"version":1,"key_id":"\u0061","identity":"i","nonce":"n","ciphertext":"c"}}"#,
      "a"
    ),
  ])
  func repeatedAndEscapedValuesReadAsJSONDecoderReadsThem(_ text: String, _ keyID: String) throws {
    // JSONDecoder keeps the first of repeated keys; the reader leaves repeats to it.
    let envelope = try PushEnvelopeOpener.envelope(fromAPNSPayload: Data(text.utf8))
    #expect(envelope.keyID == keyID)
  }

  // MARK: Content

  static let contentTexts: [String] = {
    let alert = Known.alert(server: "web-frontend-01 (东京)")
    let base = String(decoding: (try? WireJSON.encode(alert)) ?? Data(), as: UTF8.self)
    var texts = PushEnvelopeOpenerTests.validContents.map { _, content, _ in
      String(decoding: (try? WireJSON.encode(content)) ?? Data(), as: UTF8.self)
    }
    func replacing(_ old: String, _ new: String) -> String {
      base.replacingOccurrences(of: old, with: new)
    }
    let name = "web-frontend-01 (东京)"
    texts += [
      base,
      // Escapes, including \u surrogate pairs, in the shown names.
      replacing(name, #"web-frontend-01 (\u4e1c\u4eac)"#),
      replacing(name, #"web-frontend-01 (\u4E1C\u4EAC)"#),
      replacing(name, #"db \ud83d\ude00 \"primary\" \\ \/ \n\t\r\b\f"#),
      replacing(name, #"\ud83d"#), replacing(name, #"\ude00"#), replacing(name, #"\ud83d\u0041"#),
      replacing(name, #"\u0000"#), replacing(name, #"\q"#), replacing(name, "tab\there"),
      replacing(name, #"\uD834\uDD1E clef"#),
      // Repeated, unknown and escaped keys.
      replacing(#""kind":"alert","#, #""kind":"alert","kind":"test","#),
      replacing(#""kind":"alert","#, #""kind":"test","kind":"alert","#),
      replacing(#""kind":"alert","#, #""kind":"alert","future":{"x":[1,2.5,null]},"#),
      replacing(#""status":"firing","#, #""status":"firing","extra":"x","#),
      replacing(#""kind":"alert","#, #""kin\u0064":"alert","#),
      String(base.dropLast()) + #","alert":null}"#,
      String(base.dropLast()) + #","server_id":null}"#,
      replacing(#""kind":"alert""#, #""kind":null"#),
      replacing(#""kind":"alert","#, ""),
      // Numbers.
      replacing(#""created_at":2000000000"#, #""created_at":2e9"#),
      replacing(#""created_at":2000000000"#, #""created_at":2000000000.0"#),
      replacing(#""created_at":2000000000"#, #""created_at":-0"#),
      replacing(#""created_at":2000000000"#, #""created_at":99999999999999999999"#),
      replacing(#""created_at":2000000000"#, #""created_at":"2000000000""#),
      replacing(#""expires_at":2000001800"#, #""expires_at":2000001800,"created_at":1"#),
      // White space, BOM, trailing bytes, truncation, nesting, not an object.
      replacing(",", " ,\n ").replacingOccurrences(of: ":", with: " : "),
      "\u{FEFF}" + base, base + " x", " " + base + "\n", String(base.prefix(100)),
      String(base.dropLast()) + #","z":"# + PushJSONReaderDifferentialTests.deep + "}",
      String(base.dropLast()) + #","z":"# + PushJSONReaderDifferentialTests.veryDeep + "}",
      "", "[]", "{}", "null", "not json",
    ]
    let task = String(decoding: (try? WireJSON.encode(Known.task())) ?? Data(), as: UTF8.self)
    texts += [
      task.replacingOccurrences(of: #""total":12"#, with: #""total":12,"total":13"#),
      task.replacingOccurrences(of: #""total":12"#, with: #""total":1e1"#),
      task.replacingOccurrences(of: #""denied":0"#, with: #""denied":-5"#),
      task.replacingOccurrences(of: #""denied":0"#, with: #""denied":9223372036854775807"#),
      task.replacingOccurrences(of: #""denied":0"#, with: #""denied":9223372036854775808"#),
      task.replacingOccurrences(of: #""denied":0"#, with: ""),
    ]
    return texts
  }()

  static let plaintexts: [[UInt8]] = {
    var plaintexts = contentTexts.map { Array($0.utf8) }
    let base = Array(contentTexts[0].utf8)
    if let at = base.lastIndex(of: UInt8(ascii: "w")) {
      for bad: [UInt8] in [[0xFF], [0xE4, 0xB8], [0xED, 0xB0, 0x80], [0xC0, 0xAF], [0x00]] {
        var copy = base
        copy.replaceSubrange(at..<(at + 1), with: bad)
        plaintexts.append(copy)
      }
    }
    return plaintexts
  }()

  @Test func readerAgreesWithJSONDecoderOnEveryContent() {
    var decided = 0
    for (number, plaintext) in Self.plaintexts.enumerated() {
      let reference = Result { () throws(PushEnvelopeCryptoError) in
        try PushEnvelopeOpener.codableContent(fromPlaintext: plaintext)
      }
      if let read = PushJSONReader.content(from: plaintext) {
        decided += 1
        #expect((try? reference.get()) == read, "content #\(number)")
      }
      let decoded = Result { () throws(PushEnvelopeCryptoError) in
        try PushEnvelopeOpener.content(fromPlaintext: plaintext)
      }
      #expect(Self.outcome(decoded) == Self.outcome(reference), "content #\(number)")
    }
    #expect(decided >= 15)
    #expect(decided < Self.plaintexts.count - 20)
  }

  @Test func escapedNamesDecodeToTheirCharacters() throws {
    let text = try #require(
      String(
        decoding: (try? WireJSON.encode(Known.alert(server: "web-frontend-01 (东京)"))) ?? Data(),
        as: UTF8.self
      ).replacingOccurrences(
        of: "web-frontend-01 (东京)", with: #"web-frontend-01 (\u4e1c\u4eac) \ud83d\ude00"#))
    let content = try #require(PushJSONReader.content(from: Array(text.utf8)))
    #expect(content.alert?.serverName == "web-frontend-01 (东京) 😀")
  }

  /// The whole step: every content, sealed into a payload, opens to the same content or the
  /// same error code with and without the reader.
  @Test func openingAgreesWithTheCodableOpener() throws {
    let fast = Known.opener()
    let reference = PushEnvelopeOpener(
      now: { Date(timeIntervalSince1970: Double(Known.createdAt) + 100) },
      readsJSONWithJSONDecoderOnly: true)
    for (number, plaintext) in Self.plaintexts.enumerated() {
      let envelope = try Known.sealer.seal(
        plaintext: Data(plaintext), keyID: Known.keyID, key: Known.keyBase64,
        identity: Known.identity)
      let envelopeText = String(decoding: try WireJSON.encode(envelope), as: UTF8.self)
      for payload in [
        Self.payload(envelope: envelopeText), " " + Self.payload(envelope: envelopeText),
      ] {
        let data = Data(payload.utf8)
        let opened = Result { try fast.open(apnsPayload: data, with: Known.key, for: .delivery) }
        let expected = Result {
          try reference.open(apnsPayload: data, with: Known.key, for: .delivery)
        }
        #expect(Self.outcome(opened) == Self.outcome(expected), "content #\(number)")
      }
    }
    for (number, payload) in Self.payloads.enumerated() {
      let opened = Result { try fast.open(apnsPayload: payload, with: Known.key, for: .tap) }
      let expected = Result { try reference.open(apnsPayload: payload, with: Known.key, for: .tap) }
      #expect(Self.outcome(opened) == Self.outcome(expected), "payload #\(number)")
    }
  }

  /// A comparable outcome: the value's description, or the error code.
  static func outcome<Value>(_ result: Result<Value, some Error>) -> String {
    switch result {
    case .success(let value): return "ok \(value)"
    case .failure(let error as PushEnvelopeCryptoError): return "error \(error.code.rawValue)"
    case .failure(let error): return "unexpected \(type(of: error))"
    }
  }
}
