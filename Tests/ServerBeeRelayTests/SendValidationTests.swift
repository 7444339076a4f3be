import Foundation
import ServerBeeModels
import ServerBeeRelay
import ServerBeeTestHarness
import Testing

/// Every key rule of `POST /v1/send` (Protocol/Relay.md), over loopback HTTP: a broken body is 400
/// `InvalidRequest` and the provider is never called.
@Suite(.timeLimit(.minutes(5)))
struct SendValidationTests {
  static let base = SendBody()
  static func base64(_ count: Int) -> JSONValue {
    .string(Data(repeating: 7, count: count).base64EncodedString())
  }

  static let invalidBodies: [SendBody] = [
    base.setting("device_token", nil),
    base.setting("environment", nil),
    base.setting("event_id", nil),
    base.setting("expires_at", nil),
    base.setting("envelope", nil),
    base.setting("extra", .string("x")),
    base.setting("device_token", .string("A1B2")),
    base.setting("device_token", .string("abc")),
    base.setting("device_token", .string("")),
    base.setting("device_token", .string(String(repeating: "ab", count: 513))),
    base.setting("device_token", .string("zz")),
    base.setting("device_token", .number(12)),
    base.setting("environment", .string("development")),
    base.setting("environment", .string("Sandbox")),
    base.setting("event_id", .string("0F8E3A52-5C1B-4D8E-9A7F-2B6C4D8E1F30")),
    base.setting("event_id", .string("0f8e3a525c1b4d8e9a7f2b6c4d8e1f30")),
    base.setting("event_id", .string("not-a-uuid")),
    base.setting("expires_at", .number(0)),
    base.setting("expires_at", .number(-5)),
    base.setting("expires_at", .number(Double(RelayHarness.start + 1801))),
    base.setting("expires_at", .number(9_007_199_254_740_992)),
    base.setting("expires_at", .number(Double(RelayHarness.start) + 600.5)),
    base.setting("expires_at", .string("1800000600")),
    base.setting("expires_at", .bool(true)),
    base.setting("envelope", .string("{}")),
    base.settingEnvelope("version", .number(2)),
    base.settingEnvelope("version", .string("1")),
    base.settingEnvelope("version", nil),
    base.settingEnvelope("extra", .number(1)),
    base.settingEnvelope("key_id", .string("6B1F9C2E-3D4A-4B5C-8D6E-7F8091A2B3C4")),
    base.settingEnvelope("key_id", .string("6b1f9c2e")),
    base.settingEnvelope("identity", .string(String(repeating: "A", count: 64))),
    base.settingEnvelope("identity", .string(String(repeating: "a", count: 63))),
    base.settingEnvelope("nonce", base64(11)),
    base.settingEnvelope("nonce", base64(13)),
    base.settingEnvelope("nonce", .string("AQIDBAUG\nBwgJCgsM")).named("nonce with a newline"),
    base.settingEnvelope("nonce", .string("AQIDBAUGBwgJCgs")).named("nonce unpadded"),
    base.settingEnvelope("ciphertext", base64(15)),
    base.settingEnvelope("ciphertext", base64(2071)),
    base.settingEnvelope("ciphertext", .string("AAAAAAAAAAAAAAAAAAAAAB==")).named(
      "ciphertext non-canonical padding bits"),
    base.settingEnvelope("ciphertext", .string("AAAAAAAAAAAAAAAAAAAAAA")).named(
      "ciphertext unpadded"),
    base.settingEnvelope("ciphertext", .string("AAAAAAAAAAAA AAAAAAAAAA==")).named(
      "ciphertext with a space"),
    base.settingEnvelope("ciphertext", .string("____________________________")).named(
      "ciphertext url-safe alphabet"),
  ]

  @Test(arguments: invalidBodies)
  func aBodyBreakingOneRuleIsInvalidRequest(_ body: SendBody) async throws {
    let harness = try await RelayHarness()
    let reply = try #require(await harness.send(body))
    #expect(reply.isVerdict(400, .permanent, .invalidRequest), "\(body): \(reply.text)")
    #expect(harness.provider.received().isEmpty)
  }

  static let invalidRaw: [(String, [UInt8])] = [
    ("not JSON", Array("{\"device_token\":".utf8)),
    ("an array", Array("[]".utf8)),
    ("a string", Array("\"x\"".utf8)),
    ("invalid UTF-8", Array(SendBody().bytes.prefix(20)) + [0xff, 0xfe] + Array("}".utf8)),
    ("empty", []),
  ]

  @Test(arguments: invalidRaw.map(\.0))
  func bodiesThatAreNotAJSONObjectAreInvalidRequest(_ name: String) async throws {
    let body = try #require(Self.invalidRaw.first { $0.0 == name }?.1)
    let harness = try await RelayHarness()
    let reply = try #require(await harness.send(body))
    #expect(reply.isVerdict(400, .permanent, .invalidRequest), "\(name): \(reply.text)")
  }

  @Test(arguments: [
    SendBody(), SendBody(environment: "production"),
    SendBody(token: "ab"), SendBody(token: String(repeating: "0f", count: 512)),
    SendBody(expiresAt: RelayHarness.start + 1800),
    SendBody(expiresAt: RelayHarness.start + 1),
    base.settingEnvelope("ciphertext", base64(16)),
    base.settingEnvelope("ciphertext", base64(2070)),
    base.setting("expires_at", .number(Double(RelayHarness.start) + 600.0)).named("600.0"),
  ])
  func theEdgesOfEveryRuleAreAccepted(_ body: SendBody) async throws {
    let harness = try await RelayHarness()
    let reply = try #require(await harness.send(body))
    #expect(reply.isVerdict(200, .accepted, .accepted), "\(body): \(reply.text)")
    #expect(harness.provider.received().count == 1)
  }

  @Test(arguments: [RelayHarness.start, RelayHarness.start - 1])
  func anExpiredRequestIsAnsweredExpiredWithoutContactingTheProvider(_ expiresAt: Int64)
    async throws
  {
    let harness = try await RelayHarness()
    let reply = try #require(await harness.send(SendBody(expiresAt: expiresAt)))
    #expect(reply.isVerdict(200, .expired, .expired))
    #expect(harness.provider.received().isEmpty)
  }

  @Test func aDisabledEnvironmentIsEnvironmentDisabled() async throws {
    let harness = try await RelayHarness { $0.environments = [.production] }
    let reply = try #require(await harness.send(SendBody(environment: "sandbox")))
    #expect(reply.isVerdict(400, .permanent, .environmentDisabled))
    let ok = try #require(await harness.send(SendBody(environment: "production")))
    #expect(ok.isVerdict(200, .accepted, .accepted))
  }
}
