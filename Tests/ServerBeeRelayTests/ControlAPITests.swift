import Foundation
import ServerBeeModels
import ServerBeeRelay
import ServerBeeTestHarness
import Testing

/// The control API under `/__relay/`.
@Suite(.timeLimit(.minutes(5)))
struct ControlAPITests {
  @Test(arguments: [nil, "wrong"] as [String?])
  func everyControlRouteNeedsTheToken(_ token: String?) async throws {
    let harness = try await RelayHarness()
    for (method, path) in [
      ("GET", "/requests"), ("DELETE", "/requests"), ("PUT", "/script/default"),
      ("GET", "/nope"),
    ] {
      let reply = try #require(await harness.control(method, path, token: token))
      #expect(reply.status == 401, "\(method) \(path)")
      #expect(reply.body.isEmpty)
    }
  }

  @Test func capturedRequestsAreListedAsReceivedWithTimeAndClientIP() async throws {
    let harness = try await RelayHarness()
    let body = SendBody()
    _ = await harness.send(body)
    _ = await harness.send(Array("not json".utf8))
    let reply = try #require(await harness.control("GET", "/requests"))
    #expect(reply.status == 200)
    #expect(reply.headers["content-type"] == "application/json")
    let verdict = #"{"outcome":"accepted","reason":"Accepted","device_invalid":false}"#
    let invalid = #"{"outcome":"permanent","reason":"InvalidRequest","device_invalid":false}"#
    let expected =
      #"[{"received_at":\#(RelayHarness.start),"client_ip":"127.0.0.1","status":200,"#
      + #""verdict":\#(verdict),"request":\#(String(decoding: body.bytes, as: UTF8.self))},"#
      + #"{"received_at":\#(RelayHarness.start),"client_ip":"127.0.0.1","status":400,"#
      + #""verdict":\#(invalid),"request":null}]"#
    #expect(reply.text == expected)
    #expect(harness.relay.received().count == 2)
    #expect(harness.relay.received().first?.request?.eventID == SendBody.eventID)

    #expect(try #require(await harness.control("DELETE", "/requests")).status == 204)
    #expect(try #require(await harness.control("GET", "/requests")).text == "[]")
    #expect(harness.provider.received().isEmpty)
  }

  @Test func deliveriesShowTheExactPayloadAndHeaders() async throws {
    let harness = try await RelayHarness()
    _ = await harness.send(SendBody())
    let reply = try #require(await harness.control("GET", "/deliveries"))
    let payload = try #require(harness.provider.received().first?.payloadText)
    #expect(reply.text.contains(#","payload":\#(payload),"#))
    #expect(reply.text.contains(#""apns-id":"\#(SendBody.eventID)""#))
  }

  @Test func scriptsSetOverHTTPDriveTheVerdicts() async throws {
    let harness = try await RelayHarness()
    let token = "c0ffee"
    #expect(
      try #require(
        await harness.control(
          "PUT", "/script/devices/\(token)", body: #"{"answer":"unregistered"}"#)
      ).status == 204)
    #expect(
      try #require(
        await harness.control(
          "POST", "/script/queue",
          body:
            #"{"answers":[{"answer":"rejected","status":400,"reason":"BadTopic"},"#
            + #"{"answer":"server_error","status":503}]}"#)
      ).status == 204)
    #expect(
      try #require(await harness.send(SendBody(token: token))).isVerdict(
        200, .permanent, .unregistered, deviceInvalid: true))
    #expect(
      try #require(await harness.send(SendBody(token: "01"))).isVerdict(
        200, .permanent, .providerConfigurationOrPayload))
    #expect(
      try #require(await harness.send(SendBody(token: "02"))).isVerdict(
        200, .retryable, .providerUnavailable))
    #expect(
      try #require(
        await harness.control("PUT", "/script/default", body: #"{"answer":"network_failure"}"#)
      ).status == 204)
    #expect(
      try #require(await harness.send(SendBody(token: "03"))).isVerdict(
        200, .retryable, .networkUnavailable))
    #expect(try #require(await harness.control("DELETE", "/script")).status == 204)
    #expect(
      try #require(await harness.send(SendBody(token: token))).isVerdict(200, .accepted, .accepted))
  }

  @Test(arguments: [
    #"{"answer":"nope"}"#, #"{"answer":"rejected"}"#, #"{}"#, #"not json"#,
    #"{"answer":"accepted","delay_ms":-1}"#, #"{"answer":"accepted","hold":1}"#,
  ])
  func badScriptsAreRefused(_ body: String) async throws {
    let harness = try await RelayHarness()
    let reply = try #require(await harness.control("PUT", "/script/default", body: body))
    #expect(reply.status == 400)
  }

  @Test func aHeldScriptIsReleasedOverHTTP() async throws {
    let harness = try await RelayHarness()
    _ = await harness.control("PUT", "/script/default", body: #"{"answer":"accepted","hold":true}"#)
    let port = harness.port
    let pending = Task { () -> RelayVerdict? in
      guard let client = RelayClient(port: port) else { return nil }
      client.request(
        "POST", "/v1/send", headers: [("Content-Type", "application/json")],
        body: SendBody().bytes)
      return await client.response()?.verdict
    }
    await harness.provider.waitUntilReceived(count: 1)
    #expect(try #require(await harness.control("POST", "/script/release")).status == 204)
    #expect(await pending.value == RelayVerdict(outcome: .accepted, reason: .accepted))
  }

  @Test func devicesAreListed() async throws {
    let devices = LocalDevicePushProvider()
    devices.register(deviceToken: "beef", environment: .production)
    let harness = try await RelayHarness(fallback: devices)
    let reply = try #require(await harness.control("GET", "/devices"))
    #expect(
      reply.text
        == #"[{"device_token":"beef","environment":"production","registered":true,"#
        + #""online":false,"pending":false,"pending_count":0}]"#)
  }

  @Test func unknownControlRoutesAreNotFound() async throws {
    let harness = try await RelayHarness()
    #expect(try #require(await harness.control("GET", "/nope")).status == 404)
    #expect(try #require(await harness.control("GET", "/devices")).status == 404)
  }
}
