import Foundation
import ServerBeeModels
import Testing

@testable import ServerBeeSimulator

/// The outbox's hand-written JSON against the generic paths it replaces: the same
/// stored envelope, the same relay request and the same verdict, or the same refusal.
@Suite struct OutboxWireTests {
  static let envelopes = [
    PushEnvelope(
      keyID: "8c1e4b1a-61f0-4f0e-9d3c-6e1b2a3c4d5e", identity: String(repeating: "ab", count: 32),
      nonce: "AAECAwQFBgcICQoL", ciphertext: "3q2+7w=="),
    PushEnvelope(version: 0, keyID: "", identity: "", nonce: "", ciphertext: ""),
    PushEnvelope(
      version: 123_456_789_012, keyID: "quote \" back \\ slash", identity: "tab\tnew\nline",
      nonce: "Zürich 東京 🐝", ciphertext: "a/b\u{7F}\u{01}"),
    PushEnvelope(version: -1, keyID: "k", identity: "i", nonce: "n", ciphertext: "c"),
  ]

  /// The relay request as it was written before: the envelope decoded, the request encoded.
  static func reference(_ job: OutboxRow) throws -> Data? {
    guard let text = job.envelopeJSON,
      let envelope = try? WireJSON.decode(PushEnvelope.self, from: Data(text.utf8))
    else { return nil }
    return try WireJSON.encode(
      RelaySendRequest(
        deviceToken: job.deviceToken, environment: PushEnvironment(rawValue: job.environment),
        eventID: job.eventID, expiresAt: job.expiresAt, envelope: envelope))
  }

  static func job(envelope: String?, token: String = "ab01", environment: String = "sandbox")
    -> OutboxRow
  {
    OutboxRow(
      Row(values: [
        "event_id": .text("e1c4b1a-0000"), "installation_id": .text("i"),
        "device_token": .text(token), "environment": .text(environment),
        "expires_at": .int(1_800_000_000), "envelope_json": envelope.map(SQLValue.text) ?? .null,
      ]))
  }

  @Test func envelopesAreStoredAsTheEncoderWritesThem() throws {
    for envelope in Self.envelopes {
      let text = OutboxWire.envelopeJSON(envelope)
      #expect(Data(text.utf8) == (try WireJSON.encode(envelope)))
    }
  }

  @Test func relayRequestsAreWrittenAsBefore() throws {
    var stored = Self.envelopes.map(OutboxWire.envelopeJSON)
    stored += [
      "", "{}", "null", "not json", #"{"version":1}"#,
      #"{"version":01,"key_id":"k","identity":"i","nonce":"n","ciphertext":"c"}"#,
      #"{"version":1.0,"key_id":"k","identity":"i","nonce":"n","ciphertext":"c"}"#,
      #"{"version":1,"key_id":"k","identity":"i","nonce":"n","ciphertext":"c","x":1}"#,
      #"{"key_id":"k","version":1,"identity":"i","nonce":"n","ciphertext":"c"}"#,
      #"{ "version":1,"key_id":"k","identity":"i","nonce":"n","ciphertext":"c"}"#,
      #"{"version":1,"key_id":"k\u0041","identity":"i","nonce":"n","ciphertext":"c"}"#,
      #"{"version":1,"key_id":"k","identity":"i","nonce":"n","ciphertext":"c"} "#,
      #"{"version":99999999999999999999,"key_id":"k","identity":"i","nonce":"n","ciphertext":"c"}"#,
      #"{"version":1,"key_id":"k","identity":"i","nonce":"n","ciphertext":"c"#,
    ]
    for text in stored {
      for (token, environment) in [("ab01", "sandbox"), ("q\"\\\n", "Zürich")] {
        let job = Self.job(envelope: text, token: token, environment: environment)
        #expect(try OutboxWire.relayBody(job) == (try Self.reference(job)), "\(text)")
      }
    }
    #expect(try OutboxWire.relayBody(Self.job(envelope: nil)) == nil)
  }

  @Test func verdictsAreReadAsTheDecoderReadsThem() throws {
    var bodies = [
      #"{"outcome":"accepted","reason":"Accepted","device_invalid":false}"#,
      #"{"outcome":"permanent","reason":"Unregistered","device_invalid":true}"#,
      #"{"outcome":"","reason":"","device_invalid":false}"#,
      #"{"outcome":"a/b c","reason":"x","device_invalid":true}"#,
      #"{"outcome":"accepted","reason":"Accepted"}"#,
      #"{"outcome":"accepted","reason":"Accepted","device_invalid":0}"#,
      #"{"outcome":"acc\u0065pted","reason":"Accepted","device_invalid":false}"#,
      #"{"reason":"Accepted","outcome":"accepted","device_invalid":false}"#,
      #"{"outcome":"accepted","reason":"Accepted","device_invalid":false,"x":1}"#,
      #"{"outcome":"accepted","reason":"Accepted","device_invalid":false} "#,
      #"{"outcome":"accepted","reason":"Accepted","device_invalid":false"#,
      #" {"outcome":"accepted","reason":"Accepted","device_invalid":false}"#,
      #"{"outcome":"Zürich","reason":"Accepted","device_invalid":false}"#,
      "", "null", "[]", "{}",
    ].map { Data($0.utf8) }
    bodies.append(Data([0x7B, 0xFF, 0x7D]))
    for body in bodies {
      #expect(OutboxWire.verdict(body) == (try? WireJSON.decode(RelayVerdict.self, from: body)))
    }
    #expect(
      OutboxWire.verdict(bodies[1])
        == RelayVerdict(outcome: .permanent, reason: "Unregistered", deviceInvalid: true))
  }
}
