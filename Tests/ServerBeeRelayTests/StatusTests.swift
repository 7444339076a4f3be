import Foundation
import ServerBeeModels
import ServerBeeRelay
import ServerBeeTestHarness
import Testing

/// The status rows of Protocol/Relay.md that do not depend on the provider: 404, 405, 413, 415,
/// 408, 429, 503 busy and not configured.
@Suite(.timeLimit(.minutes(5)))
struct StatusTests {
  @Test(arguments: [
    "/", "/v1", "/v1/send/extra", "/v1/challenges", "/v1/attest", "/v1/renew", "/v1/revoke",
    "/v1/grants/inspect", "/v1/devices/stream",
  ])
  func everyOtherPathIsNotFound(_ path: String) async throws {
    let harness = try await RelayHarness()
    let reply = try #require(await harness.send(SendBody().bytes, path: path))
    #expect(reply.isVerdict(404, .permanent, .notFound), "\(path): \(reply.text)")
  }

  @Test(arguments: ["GET", "PUT", "DELETE", "PATCH", "OPTIONS"])
  func otherMethodsOnSendAreMethodNotAllowedWithAllow(_ method: String) async throws {
    let harness = try await RelayHarness()
    let reply = try #require(await harness.send([], method: method))
    #expect(reply.isVerdict(405, .permanent, .methodNotAllowed), "\(method): \(reply.text)")
    #expect(reply.headers["allow"] == "POST")
  }

  @Test func aQueryStringStillReachesSend() async throws {
    let harness = try await RelayHarness()
    let reply = try #require(await harness.send(SendBody().bytes, path: "/v1/send?x=1"))
    #expect(reply.isVerdict(200, .accepted, .accepted))
  }

  @Test(
    arguments: [
      [("Content-Type", "text/plain")], [],
      [("Content-Type", "application/jsonx")],
      [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
      [("Content-Type", "application/json"), ("Content-Encoding", "br")],
    ] as [[(String, String)]])
  func aWrongMediaTypeOrEncodingIsUnsupportedMediaType(_ headers: [(String, String)]) async throws {
    let harness = try await RelayHarness()
    let reply = try #require(await harness.send(SendBody().bytes, headers: headers))
    #expect(reply.isVerdict(415, .permanent, .unsupportedMediaType), "\(headers): \(reply.text)")
    #expect(harness.provider.received().isEmpty)
  }

  @Test func jsonWithACharsetAndIdentityEncodingAreAccepted() async throws {
    let harness = try await RelayHarness()
    let reply = try #require(
      await harness.send(
        SendBody().bytes,
        headers: [
          ("Content-Type", "Application/JSON; charset=utf-8"), ("Content-Encoding", "identity"),
        ]))
    #expect(reply.isVerdict(200, .accepted, .accepted))
  }

  @Test(arguments: [8193, 70_000])
  func aBodyOverTheLimitIsRequestTooLarge(_ size: Int) async throws {
    let harness = try await RelayHarness()
    let reply = try #require(await harness.send([UInt8](repeating: 0x20, count: size)))
    #expect(reply.isVerdict(413, .permanent, .requestTooLarge), "\(size): \(reply.text)")
  }

  @Test func aBodyOfExactlyTheLimitIsRead() async throws {
    let harness = try await RelayHarness()
    var body = SendBody().bytes
    body += [UInt8](repeating: 0x20, count: 8192 - body.count)
    let reply = try #require(await harness.send(body))
    #expect(reply.isVerdict(200, .accepted, .accepted))
  }

  @Test func aSlowUploadIsRequestTimeout() async throws {
    let harness = try await RelayHarness { $0.uploadTimeout = .milliseconds(200) }
    let client = try #require(RelayClient(port: harness.port))
    let body = SendBody().bytes
    client.request(
      "POST", "/v1/send", headers: [("Content-Type", "application/json")],
      body: Array(body.prefix(10)), contentLength: body.count)
    let reply = try #require(await client.response())
    #expect(reply.isVerdict(408, .retryable, .requestTimeout), "\(reply.text)")
    #expect(harness.provider.received().isEmpty)
  }

  @Test func theClientIPLimitAnswersRateLimitedUntilTheNextMinute() async throws {
    let harness = try await RelayHarness { $0.limits.requestsPerClient = 2 }
    for index in 0..<2 {
      let reply = try #require(await harness.send(SendBody(token: "0\(index)")))
      #expect(reply.isVerdict(200, .accepted, .accepted))
    }
    let limited = try #require(await harness.send(SendBody(token: "0a")))
    #expect(limited.isVerdict(429, .retryable, .rateLimited))
    #expect(limited.headers["retry-after"] == "60")
    harness.advance(by: 60)
    let again = try #require(await harness.send(SendBody(token: "0b")))
    #expect(again.isVerdict(200, .accepted, .accepted))
  }

  @Test func theDeviceLimitCountsPerEnvironmentAndToken() async throws {
    let harness = try await RelayHarness { $0.limits.sendsPerDevice = 1 }
    #expect(try #require(await harness.send(SendBody())).isVerdict(200, .accepted, .accepted))
    let limited = try #require(await harness.send(SendBody()))
    #expect(limited.isVerdict(429, .retryable, .rateLimited))
    #expect(limited.headers["retry-after"] == "60")
    let otherToken = try #require(await harness.send(SendBody(token: "ff")))
    #expect(otherToken.isVerdict(200, .accepted, .accepted))
    let otherEnvironment = try #require(await harness.send(SendBody(environment: "production")))
    #expect(otherEnvironment.isVerdict(200, .accepted, .accepted))
    #expect(harness.provider.received().count == 3)
    harness.advance(by: 60)
    #expect(try #require(await harness.send(SendBody())).isVerdict(200, .accepted, .accepted))
  }

  @Test func theRelayLimitCountsEveryRequest() async throws {
    let harness = try await RelayHarness {
      $0.limits.requestsPerRelay = 3
      $0.limits.requestsPerClient = 100
    }
    #expect(try #require(await harness.send(SendBody(token: "01"))).status == 200)
    // Invalid and expired requests count too: the limit comes before the schema.
    #expect(try #require(await harness.send(Array("{}".utf8))).status == 400)
    #expect(try #require(await harness.send(SendBody(expiresAt: 1))).status == 200)
    let limited = try #require(await harness.send(SendBody(token: "02")))
    #expect(limited.isVerdict(429, .retryable, .rateLimited))
    #expect(limited.headers["retry-after"] == "60")
  }

  @Test func moreRequestsInFlightThanTheCapAreRelayBusy() async throws {
    let cap = 3
    let harness = try await RelayHarness { $0.limits.maximumInFlight = cap }
    harness.provider.setDefault(.held(.accepted))
    let port = harness.port
    let held = (0..<cap).map { index in
      Task { () -> RelayVerdict? in
        guard let client = RelayClient(port: port) else { return nil }
        client.request(
          "POST", "/v1/send", headers: [("Content-Type", "application/json")],
          body: SendBody(token: String(format: "%02x", index)).bytes)
        return await client.response()?.verdict
      }
    }
    await harness.provider.waitUntilReceived(count: cap)
    let busy = try #require(await harness.send(SendBody(token: "ee")))
    #expect(busy.isVerdict(503, .retryable, .relayBusy))
    #expect(busy.headers["retry-after"] == "1")
    harness.provider.release()
    for task in held {
      #expect(await task.value == RelayVerdict(outcome: .accepted, reason: .accepted))
    }
    harness.provider.setDefault(ScriptedAnswer(.accepted))
    let after = try #require(await harness.send(SendBody(token: "ee")))
    #expect(after.isVerdict(200, .accepted, .accepted))
  }

  /// Uploads count as in flight, as the Worker counts them. With the default cap of
  /// 32 held by slow uploads, a 33rd request (slow or not) is `RelayBusy` from its head alone.
  @Test func thirtyTwoSlowUploadsMakeTheNextRequestRelayBusy() async throws {
    // A long grace period: this test is about the cap, not about cutting slow uploads off.
    let harness = try await RelayHarness { $0.uploadGracePeriod = .seconds(600) }
    let cap = harness.relay.configuration.limits.maximumInFlight
    #expect(cap == 32)
    let body = SendBody().bytes
    var uploads: [RelayClient] = []
    for _ in 0..<cap { uploads.append(try harness.startUpload(body)) }
    try await harness.waitUntil { harness.relay.requestsInFlight == cap }

    let late = try harness.startUpload(body)
    let busy = try #require(await late.response())
    #expect(busy.isVerdict(503, .retryable, .relayBusy), "\(busy.text)")
    #expect(busy.text == #"{"outcome":"retryable","reason":"RelayBusy","device_invalid":false}"#)
    #expect(busy.headers["retry-after"] == "1")
    let complete = try #require(await harness.send(SendBody(token: "ee")))
    #expect(complete.isVerdict(503, .retryable, .relayBusy))
    #expect(complete.headers["retry-after"] == "1")

    for client in uploads { client.send(Array(body.dropFirst(10))) }
    for client in uploads {
      let reply = try #require(await client.response())
      #expect(reply.isVerdict(200, .accepted, .accepted), "\(reply.text)")
    }
    try await harness.waitUntil { harness.relay.requestsInFlight == 0 }
    let after = try #require(await harness.send(SendBody(token: "ee")))
    #expect(after.isVerdict(200, .accepted, .accepted))
    #expect(harness.provider.received().count == cap + 1)
  }

  /// The slowloris protection of decision 0006 holds for the in-flight cap too (decision
  /// 0009): at the cap, a new request cuts off the upload that has been arriving the longest,
  /// once past the grace period (0 here), instead of being refused.
  @Test func aNewRequestCutsOffTheOldestSlowUploadPastItsGracePeriod() async throws {
    let harness = try await RelayHarness {
      $0.limits.maximumInFlight = 2
      $0.uploadGracePeriod = .zero
    }
    let body = SendBody().bytes
    let oldest = try harness.startUpload(body)
    try await harness.waitUntil { harness.relay.requestsInFlight == 1 }
    let newer = try harness.startUpload(body)
    try await harness.waitUntil { harness.relay.requestsInFlight == 2 }

    let served = try #require(await harness.send(SendBody(token: "ee")))
    #expect(served.isVerdict(200, .accepted, .accepted), "\(served.text)")
    let cutOff = try #require(await oldest.response())
    #expect(cutOff.isVerdict(408, .retryable, .requestTimeout), "\(cutOff.text)")
    newer.send(Array(body.dropFirst(10)))
    let finished = try #require(await newer.response())
    #expect(finished.isVerdict(200, .accepted, .accepted), "\(finished.text)")
  }

  /// A request held by the provider is never cut off: with every slot held that way, a new
  /// upload is `RelayBusy` from its head.
  @Test func requestsBeingHandledAreNeverCutOff() async throws {
    let harness = try await RelayHarness {
      $0.limits.maximumInFlight = 1
      $0.uploadGracePeriod = .zero
    }
    harness.provider.setDefault(.held(.accepted))
    let held = Task { await harness.send(SendBody(token: "01")) }
    await harness.provider.waitUntilReceived(count: 1)
    let late = try harness.startUpload(SendBody(token: "02").bytes)
    let busy = try #require(await late.response())
    #expect(busy.isVerdict(503, .retryable, .relayBusy), "\(busy.text)")
    harness.provider.release()
    let first = try #require(await held.value)
    #expect(first.isVerdict(200, .accepted, .accepted))
  }

  @Test(arguments: ["", "bad topic"])
  func aRelayWithoutAUsableTopicIsNotConfigured(_ topic: String) async throws {
    let harness = try await RelayHarness { $0.topic = topic }
    let reply = try #require(await harness.send(SendBody()))
    #expect(reply.isVerdict(503, .permanent, .relayNotConfigured))
    #expect(reply.headers["retry-after"] == nil)
    #expect(harness.provider.received().isEmpty)
  }

  @Test func aRelayWithoutEnvironmentsIsNotConfigured() async throws {
    let harness = try await RelayHarness { $0.environments = [] }
    let reply = try #require(await harness.send(SendBody()))
    #expect(reply.isVerdict(503, .permanent, .relayNotConfigured))
  }

  @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
    let harness = try await RelayHarness()
    let client = try #require(RelayClient(port: harness.port))
    for index in 0..<3 {
      client.request(
        "POST", "/v1/send", headers: [("Content-Type", "application/json")],
        body: SendBody(token: "0\(index)").bytes)
      let reply = try #require(await client.response())
      #expect(reply.isVerdict(200, .accepted, .accepted))
    }
  }

  @Test func startingTwiceIsAlreadyStarted() async throws {
    let harness = try await RelayHarness()
    #expect(throws: ServerBeeRelayError.self) { try harness.relay.start() }
    harness.relay.stop()
    let again = try harness.relay.start()
    #expect(again.port != nil)
  }
}
