import Foundation
import ServerBeeModels
@_spi(Fuzzing) import ServerBeeRelay
import Testing

/// The hand-written `/v1/send` validator against the former `JSONDecoder` one, on a
/// table of valid and hostile bodies: both accept the same bodies as the same request, and
/// refuse the same ones. The only difference on purpose is a repeated key (refused now; the
/// reference keeps one value of a repeated top-level key).
@Suite struct SendValidatorDifferentialTests {
  static let valid = String(decoding: SendBody().bytes, as: UTF8.self)

  /// Replaces the first occurrence of `old` in the valid body.
  static func edit(_ old: String, _ new: String) -> String {
    guard let range = valid.range(of: old) else { return "missing \(old)" }
    return valid.replacingCharacters(in: range, with: new)
  }

  static let expires = String(RelayHarness.start + 600)
  static let token = SendBody.token
  static let nonce = SendBody.nonce
  static let ciphertext = SendBody.ciphertext

  static let table: [String] = [
    valid,
    // Whitespace and order.
    " \n\t\r" + valid + " \r\n\t",
    valid.replacingOccurrences(of: ":", with: " : ").replacingOccurrences(of: ",", with: " ,\n "),
    edit(#"{"device_token""#, #"{ "device_token""#),
    #"{"envelope":{"ciphertext":"\#(ciphertext)","nonce":"\#(nonce)","#
      + #""identity":"\#(SendBody.identity)","key_id":"\#(SendBody.keyID)","version":1},"#
      + #""expires_at":\#(expires),"event_id":"\#(SendBody.eventID)","#
      + #""environment":"production","device_token":"\#(token)"}"#,
    // Escapes.
    edit(#""device_token""#, #""device\u005ftoken""#),
    edit(#""sandbox""#, #""sand\u0062ox""#),
    edit(#""sandbox""#, #""sand\u0042ox""#),
    edit(token, "a1\\u00622c3d4e5f60718293a4b5c6d7e8f90"),
    edit(token, "a1\\u00422c3d4e5f60718293a4b5c6d7e8f90"),
    edit(token, "a1\\u00e92c3d4e5f60718293a4b5c6d7e8f90"),
    edit(token, "a1\\ud800c3d4e5f60718293a4b5c6d7e8f90"),
    edit(token, "a1\\ud83d\\ude00c3d4e5f60718293a4b5c6d7e8f90"),
    edit(token, "a1\\x62c3d4e5f60718293a4b5c6d7e8f90"),
    edit(token, "a1\\u62c3d4e5f60718293a4b5c6d7e8f90"),
    edit(token, "a1\\nb2c3d4e5f60718293a4b5c6d7e8f90"),
    edit(token, "a1\tb2c3d4e5f60718293a4b5c6d7e8f90"),
    edit(token, "a1\u{7f}b2c3d4e5f60718293a4b5c6d7e8f90"),
    edit(token, "a1é2c3d4e5f60718293a4b5c6d7e8f90"),
    edit(nonce, nonce.replacingOccurrences(of: "/", with: "\\/")),
    edit(nonce, nonce.replacingOccurrences(of: "A", with: "\\u0041")),
    // Numbers.
    edit(expires, expires + ".0"),
    edit(expires, expires + ".000e0"),
    edit(expires, "1.8000006e9"),
    edit(expires, "18000006E2"),
    edit(expires, "18000006e+2"),
    edit(expires, expires + ".5"),
    edit(expires, "0" + expires),
    edit(expires, "+" + expires),
    edit(expires, "-" + expires),
    edit(expires, expires + "."),
    edit(expires, expires + "e"),
    edit(expires, "1e400"),
    edit(expires, "0"),
    edit(expires, "-0"),
    edit(expires, "1"),
    edit(expires, "9007199254740991"),
    edit(expires, "9007199254740992"),
    edit(expires, "9007199254740993"),
    edit(expires, "0x6B49D200"),
    edit(expires, "Infinity"),
    edit(expires, "NaN"),
    edit(expires, "\"\(expires)\""),
    edit(expires, "true"),
    edit(expires, "null"),
    edit(expires, "[\(expires)]"),
    edit(#""version":1"#, #""version":1.0"#),
    edit(#""version":1"#, #""version":1e0"#),
    edit(#""version":1"#, #""version":10E-1"#),
    edit(#""version":1"#, #""version":0.1e1"#),
    edit(#""version":1"#, #""version":01"#),
    edit(#""version":1"#, #""version":2"#),
    edit(#""version":1"#, #""version":true"#),
    edit(#""version":1"#, #""version":"1""#),
    edit(#""version":1"#, #""version":1.0000000000000001"#),
    // Structure.
    "", "{}", "[]", "null", "1", "\"x\"", "{", "}", valid + valid, valid + ",", valid + "x",
    "\u{FEFF}" + valid,
    edit(#","envelope""#, #",,"envelope""#),
    edit("}}", "},}"),
    edit("}}", ",}}"),
    edit("}}", ",},}"),
    edit("}}", ",,}}"),
    edit("}}", "}, }"),
    edit("}}", "}\n,\n}"),
    edit(#"{"device_token""#, #"{,"device_token""#),
    edit(#","envelope""#, #", ,"envelope""#),
    "\u{FEFF}\u{FEFF}" + valid,
    " \u{FEFF}" + valid,
    valid + "\u{FEFF}",
    "\u{0B}" + valid,
    "\u{0C}" + valid,
    "/**/" + valid,
    valid + "//",
    edit(#""version":1"#, #""version":1,"#) + " ",
    edit("}}", "}}}"),
    edit(#"{"device_token""#, #"{"x":1,"device_token""#),
    edit(#""envelope":{"#, #""envelope":[{"#),
    edit(#""envelope":{"#, #""envelope":null,"e":{"#),
    edit(#""sandbox""#, "null"),
    edit(#""sandbox""#, #""SANDBOX""#),
    edit(#""sandbox""#, #""development""#),
    edit(#""device_token""#, #""Device_token""#),
    edit(#""device_token":"\#(token)""#, #""device_token":"\#(token)","device_token":"\#(token)""#),
    edit(#""nonce""#, #""nonce":"\#(nonce)","nonce""#),
    // Values.
    edit(token, token.uppercased()),
    edit(token, "abc"),
    edit(token, ""),
    edit(token, String(repeating: "ab", count: 512)),
    edit(token, String(repeating: "ab", count: 513)),
    edit(SendBody.eventID, SendBody.eventID.uppercased()),
    edit(SendBody.eventID, SendBody.eventID.replacingOccurrences(of: "-", with: "")),
    edit(SendBody.keyID, SendBody.keyID.replacingOccurrences(of: "-", with: "_")),
    edit(SendBody.identity, String(SendBody.identity.dropLast())),
    edit(SendBody.identity, SendBody.identity.uppercased()),
    edit(nonce, String(nonce.dropLast())),
    edit(nonce, Data(count: 11).base64EncodedString()),
    edit(nonce, "AQIDBAUGBwgJCgsN"),
    edit(ciphertext, Data(count: 15).base64EncodedString()),
    edit(ciphertext, Data(count: 16).base64EncodedString()),
    edit(ciphertext, Data(count: 17).base64EncodedString()),
    edit(ciphertext, Data(count: 2070).base64EncodedString()),
    edit(ciphertext, Data(count: 2071).base64EncodedString()),
    edit(ciphertext, "AAAAAAAAAAAAAAAAAAAAAB=="),
    edit(ciphertext, "AAAAAAAAAAAAAAAAAAAAAA=="),
    edit(ciphertext, "AAAAAAAAAAAAAAAAAAAAAAA="),
    edit(ciphertext, "AAAAAAAAAAAAAAAAAAAAAAB="),
    edit(ciphertext, "AAAAAAAAAAAAAAAAAAAAAA="),
    edit(ciphertext, "AAAAAAAAAAAAAAAAAAAA=AAA"),
    edit(ciphertext, "AAAAAAAAAAAAAAAAAAAA AAA"),
    edit(ciphertext, "AAAAAAAAAAAAAAAAAAAA-_AA"),
    edit(ciphertext, "===================="),
  ]

  /// The one difference on purpose: `JSONDecoder` keeps one value of a repeated key.
  static func repeatsAKey(_ body: String) -> Bool {
    body.components(separatedBy: #""device_token":"#).count > 2
      || body.components(separatedBy: #""nonce":"#).count > 2
  }

  @Test(arguments: table)
  func bothValidatorsAgree(_ body: String) {
    let bytes = Array(body.utf8)
    let new = RelayServer.validateSendBody(bytes)
    let reference = RelayServer.referenceValidateSendBody(bytes)
    if Self.repeatsAKey(body) {
      #expect(new == nil, "a repeated key is refused")
    } else {
      #expect(new == reference, "\(body)")
    }
  }

  @Test func theValidBodyIsAccepted() throws {
    let request = try #require(RelayServer.validateSendBody(Array(Self.valid.utf8)))
    #expect(request.deviceToken == SendBody.token)
    #expect(request.expiresAt == RelayHarness.start + 600)
    #expect(request.envelope.ciphertext == SendBody.ciphertext)
  }

  /// Every prefix of a valid body, and every one-byte change of it to a byte that matters to
  /// JSON, are judged alike.
  @Test func truncationsAndOneByteChangesAgree() {
    let bytes = Array(Self.valid.utf8)
    var disagreements: [String] = []
    for end in 0..<bytes.count {
      let prefix = Array(bytes[..<end])
      if RelayServer.validateSendBody(prefix) != RelayServer.referenceValidateSendBody(prefix) {
        disagreements.append("prefix \(end)")
      }
    }
    let replacements: [UInt8] = Array(#"{}[]",:0 1a\eE.-+A"#.utf8) + [0x00, 0x7F, 0xC3, 0xFF]
    for index in stride(from: 0, to: bytes.count, by: 3) {
      for byte in replacements where byte != bytes[index] {
        var changed = bytes
        changed[index] = byte
        if RelayServer.validateSendBody(changed)
          != RelayServer.referenceValidateSendBody(changed)
        {
          disagreements.append("byte \(index) → \(byte)")
        }
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
  }
}
