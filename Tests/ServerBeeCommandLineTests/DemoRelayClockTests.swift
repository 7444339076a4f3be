import Foundation
import ServerBeeModels
import ServerBeeRelay
import ServerBeeSimulator
import ServerBeeTestHarness
import Testing

@testable import ServerBeeCommandLine

/// The relay embedded in `serverbee demo` reads the simulator's clock, so a push made
/// after the simulator's clock moved ahead is still accepted (it was 400 InvalidRequest:
/// expiring more than 30 minutes after the relay's own now).
@Suite(.timeLimit(.minutes(3)))
struct DemoRelayClockTests {
  @Test func theEmbeddedRelayAcceptsAPushTwoHoursAheadAfterTheSimulatorAdvanced() async throws {
    let temporary = try TemporaryDirectory()
    let world = try await DemoWorld.start(
      dataDirectory: temporary.url.appendingPathComponent("simulator"))
    defer { world.stop() }
    let devices = try #require(world.relay.provider as? LocalDevicePushProvider)
    let token = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
    #expect(devices.register(deviceToken: token, environment: .sandbox))

    world.simulator.clock.advance(by: 2 * 3600)
    // As the simulator's outbox sets it: a few minutes after the simulator's now.
    let expiresAt = Int64(world.simulator.clock.now.timeIntervalSince1970) + 600
    let nonce = Data((1...12).map { UInt8($0) }).base64EncodedString()
    let ciphertext = Data((0..<48).map { UInt8($0) }).base64EncodedString()
    let body =
      #"{"device_token":"\#(token)","environment":"sandbox","#
      + #""event_id":"0f8e3a52-5c1b-4d8e-9a7f-2b6c4d8e1f30","expires_at":\#(expiresAt),"#
      + #""envelope":{"version":1,"key_id":"6b1f9c2e-3d4a-4b5c-8d6e-7f8091a2b3c4","#
      + #""identity":"40e9ea0a395dec3bafe5e84afbbe2e726ac53aa273f168b4ac650b208fdef51f","#
      + #""nonce":"\#(nonce)","ciphertext":"\#(ciphertext)"}}"#
    let client = try #require(LoopbackClient(port: UInt16(world.relayURL.port ?? 0)))
    client.request(
      "POST", "/v1/send", headers: [("Content-Type", "application/json")], body: Array(body.utf8))
    // Generous: only a broken relay takes that long, but a parallel run loads the pool.
    let reply = try #require(await client.response(timeout: 150))
    #expect(reply.status == 200, "\(reply.text)")
    #expect(reply.text.contains(#""outcome":"accepted""#), "\(reply.text)")
  }
}
