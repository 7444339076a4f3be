import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import Testing

@testable import ServerBeeRelay

/// The APNs provider against the mock APNs (Python `h2` over TLS, checking every header, the
/// body and the JWT with the public key): every classification row of Protocol/Relay.md §2,
/// JWT reuse and refresh, connection reuse, a dropped connection, deadlines, certificates, and
/// logs that never hold a token, payload or key.
@Suite(.timeLimit(.minutes(5))) struct APNsProviderTests {
  /// One row: what the mock answers, the provider answer, and the relay verdict.
  struct Row: Sendable, CustomTestStringConvertible {
    let tag: String
    let status: Int
    let reason: String?
    let raw: String?
    let answer: ProviderAnswer
    let verdict: RelayVerdict
    var testDescription: String { "\(status) \(reason ?? raw ?? "-")" }
  }

  static let permanentConfiguration = RelayVerdict(
    outcome: .permanent, reason: .providerConfigurationOrPayload)
  static let providerUnavailable = RelayVerdict(outcome: .retryable, reason: .providerUnavailable)
  static let networkUnavailable = RelayVerdict(outcome: .retryable, reason: .networkUnavailable)

  static let rows: [Row] = [
    Row(
      tag: "a1", status: 200, reason: nil, raw: nil, answer: .accepted,
      verdict: RelayVerdict(outcome: .accepted, reason: .accepted)),
    Row(
      tag: "a2", status: 410, reason: "Unregistered", raw: nil, answer: .unregistered,
      verdict: RelayVerdict(outcome: .permanent, reason: .unregistered, deviceInvalid: true)),
    Row(
      tag: "a3", status: 410, reason: "ExpiredToken", raw: nil,
      answer: .rejected(status: 410, reason: "ExpiredToken"), verdict: permanentConfiguration),
    Row(
      tag: "a4", status: 400, reason: "BadDeviceToken", raw: nil, answer: .badDeviceToken,
      verdict: RelayVerdict(outcome: .permanent, reason: .deviceOrEnvironmentMismatch)),
    Row(
      tag: "a5", status: 400, reason: "DeviceTokenNotForTopic", raw: nil,
      answer: .rejected(status: 400, reason: "DeviceTokenNotForTopic"),
      verdict: permanentConfiguration),
    Row(
      tag: "a6", status: 400, reason: "BadTopic", raw: nil,
      answer: .rejected(status: 400, reason: "BadTopic"), verdict: permanentConfiguration),
    Row(
      tag: "a7", status: 403, reason: "InvalidProviderToken", raw: nil,
      answer: .rejected(status: 403, reason: "InvalidProviderToken"),
      verdict: permanentConfiguration),
    Row(
      tag: "a8", status: 403, reason: "ExpiredProviderToken", raw: nil,
      answer: .rejected(status: 403, reason: "ExpiredProviderToken"),
      verdict: permanentConfiguration),
    Row(
      tag: "a9", status: 405, reason: "MethodNotAllowed", raw: nil,
      answer: .rejected(status: 405, reason: "MethodNotAllowed"), verdict: permanentConfiguration),
    Row(
      tag: "b1", status: 413, reason: "PayloadTooLarge", raw: nil,
      answer: .rejected(status: 413, reason: "PayloadTooLarge"), verdict: permanentConfiguration),
    Row(
      tag: "b2", status: 429, reason: "TooManyRequests", raw: nil, answer: .rateLimited,
      verdict: providerUnavailable),
    Row(
      tag: "b3", status: 500, reason: "InternalServerError", raw: nil,
      answer: .serverError(status: 500), verdict: providerUnavailable),
    Row(
      tag: "b4", status: 503, reason: "ServiceUnavailable", raw: nil,
      answer: .serverError(status: 503), verdict: providerUnavailable),
    Row(
      tag: "b5", status: 400, reason: nil, raw: "not json", answer: .malformedReply,
      verdict: networkUnavailable),
    Row(
      tag: "b6", status: 302, reason: "Moved", raw: nil,
      answer: .rejected(status: 302, reason: "Moved"), verdict: permanentConfiguration),
  ]

  @Test func everyClassificationRow() async throws {
    var tokens: [String: [String: Any]] = [:]
    for row in Self.rows {
      var action: [String: Any] = ["status": row.status]
      if let reason = row.reason { action["reason"] = reason }
      if let raw = row.raw { action["raw"] = raw }
      tokens[MockAPNs.token(row.tag)] = action
    }
    let mock = try await MockAPNs.start(tokens: tokens)
    let provider = try mock.provider()
    try await withThrowingTaskGroup(of: (Row, ProviderAnswer).self) { group in
      for row in Self.rows {
        group.addTask {
          (row, await provider.deliver(MockAPNs.delivery(token: MockAPNs.token(row.tag))))
        }
      }
      for try await (row, answer) in group {
        #expect(answer == row.answer, "\(row.testDescription)")
        #expect(answer.verdict == row.verdict, "\(row.testDescription)")
      }
    }
    #expect(provider.connectionsOpened(.sandbox) == 1)
    // ExpiredProviderToken: signed again at once and sent once more, then given up.
    #expect(try mock.entries(token: MockAPNs.token("a8")).count == 2)
    #expect(try mock.entries(token: MockAPNs.token("a7")).count == 1)
  }

  /// The mock's checks passed (else it answers 400 Mock…), and what it saw is exactly ours.
  @Test func sendsEveryHeaderTheBodyAndAVerifiedJWT() async throws {
    let mock = try await MockAPNs.start()
    let now = Int64(Date().timeIntervalSince1970)
    let provider = try mock.provider(clock: RelayClock(now: { now }))
    let token = MockAPNs.token("c1")
    let delivery = MockAPNs.delivery(token: token, expiresAt: 1_900_000_123)
    #expect(await provider.deliver(delivery) == .accepted)
    let entry = try #require(try mock.entries(token: token).first)
    let headers = try #require(entry["headers"] as? [String: String])
    #expect(headers[":method"] == "POST")
    #expect(headers[":scheme"] == "https")
    #expect(headers[":authority"] == "localhost:\(mock.port)")
    #expect(headers["apns-topic"] == "app.serverbee")
    #expect(headers["apns-push-type"] == "alert")
    #expect(headers["apns-priority"] == "10")
    #expect(headers["apns-expiration"] == "1900000123")
    #expect(headers["apns-id"] == delivery.eventID)
    #expect(entry["body"] as? String == delivery.payloadText)
    #expect(entry["jwt_iat"] as? Int == Int(now))
    #expect((entry["answer"] as? [Any])?.first as? Int == 200)
  }

  @Test func reusesTheJWTAndSignsAgainAfterFortyMinutes() async throws {
    let mock = try await MockAPNs.start()
    let start = Int64(Date().timeIntervalSince1970) - 3000
    let time = Locked(start)
    let provider = try mock.provider(clock: RelayClock(now: { time.withLock { $0 } }))
    for index in 0..<4 {
      #expect(
        await provider.deliver(MockAPNs.delivery(token: MockAPNs.token("d\(index)"))) == .accepted)
    }
    #expect(provider.tokensSigned == 1)
    time.withLock { $0 += 39 * 60 }
    #expect(await provider.deliver(MockAPNs.delivery(token: MockAPNs.token("d4"))) == .accepted)
    #expect(provider.tokensSigned == 1)
    time.withLock { $0 += 2 * 60 }
    #expect(await provider.deliver(MockAPNs.delivery(token: MockAPNs.token("d5"))) == .accepted)
    #expect(provider.tokensSigned == 2)
    let hashes = try mock.entries().compactMap { $0["jwt_sha256"] as? String }
    #expect(hashes.count == 6)
    #expect(Set(hashes.prefix(5)).count == 1)
    #expect(hashes[5] != hashes[0])
    let iats = try mock.entries().compactMap { $0["jwt_iat"] as? Int }
    #expect(iats.last == Int(start + 41 * 60))
  }

  @Test func expiredProviderTokenSignsAgainAndRetriesOnce() async throws {
    let token = MockAPNs.token("e1")
    let mock = try await MockAPNs.start(tokens: [token: ["status": 200, "expire_jwt_once": true]])
    let provider = try mock.provider()
    #expect(await provider.deliver(MockAPNs.delivery(token: token)) == .accepted)
    #expect(provider.tokensSigned == 2)
    let entries = try mock.entries(token: token)
    #expect(entries.count == 2)
    #expect((entries.first?["answer"] as? [Any])?.last as? String == "ExpiredProviderToken")
    #expect(entries[0]["jwt_sha256"] as? String != entries[1]["jwt_sha256"] as? String)
    #expect(
      entries[0]["headers"] as? [String: String] == entries[1]["headers"] as? [String: String])
    // Later sends use the new token.
    #expect(await provider.deliver(MockAPNs.delivery(token: MockAPNs.token("e2"))) == .accepted)
    #expect(provider.tokensSigned == 2)
  }

  /// 40 concurrent sends on one connection, at most 5 streams at once as the mock allows.
  @Test func reusesOneConnectionWithinTheStreamLimit() async throws {
    let mock = try await MockAPNs.start(arguments: ["--max-streams", "5"])
    let provider = try mock.provider()
    try await withThrowingTaskGroup(of: ProviderAnswer.self) { group in
      for index in 0..<40 {
        group.addTask {
          await provider.deliver(
            MockAPNs.delivery(token: MockAPNs.token(String(format: "f%03d", index))))
        }
      }
      for try await answer in group { #expect(answer == .accepted) }
    }
    #expect(provider.connectionsOpened(.sandbox) == 1)
    let entries = try mock.entries()
    #expect(entries.count == 40)
    #expect(Set(entries.compactMap { $0["connection"] as? Int }) == [1])
    #expect((entries.compactMap { $0["open_streams"] as? Int }.max() ?? 0) <= 5)
  }

  /// The mock drops its first connection at the 10th of 30 concurrent sends: every send still
  /// ends accepted, on a second connection, with its own apns-id.
  @Test func droppedConnectionIsReopenedAndTheSendsRetried() async throws {
    let mock = try await MockAPNs.start(arguments: ["--drop-after", "10"])
    let logs = Locked<[String]>([])
    let provider = try mock.provider(logs: logs)
    let deliveries = (0..<30).map {
      MockAPNs.delivery(token: MockAPNs.token(String(format: "%04x", $0)))
    }
    try await withThrowingTaskGroup(of: ProviderAnswer.self) { group in
      for delivery in deliveries { group.addTask { await provider.deliver(delivery) } }
      for try await answer in group { #expect(answer == .accepted) }
    }
    #expect(provider.connectionsOpened(.sandbox) == 2)
    let answered = try mock.entries().filter { ($0["answer"] as? [Any])?.first as? Int == 200 }
    let ids = Set(answered.compactMap { ($0["headers"] as? [String: String])?["apns-id"] })
    #expect(ids == Set(deliveries.map(\.eventID)))
    #expect(logs.withLock { $0 }.contains { $0.contains("connection ended") })
  }

  /// The mock's first connection swallows PINGs: once idle, the provider's PING goes
  /// unanswered, the connection closes, and the next send opens a second one and is accepted.
  @Test func unansweredPingReconnectsAndTheNextSendSucceeds() async throws {
    let mock = try await MockAPNs.start(arguments: ["--unanswered-pings"])
    let logs = Locked<[String]>([])
    let provider = try mock.provider(
      idlePingInterval: .milliseconds(50), pingTimeout: .milliseconds(200), logs: logs)
    #expect(await provider.deliver(MockAPNs.delivery(token: MockAPNs.token("a0"))) == .accepted)
    let closed = try await PeerProcess.waitUntil {
      try mock.entries().contains { $0["connection"] as? Int == 1 && $0["closed"] != nil }
    }
    #expect(closed)
    #expect(try mock.entries().contains { $0["ping"] as? String == "unanswered" })
    #expect(await provider.deliver(MockAPNs.delivery(token: MockAPNs.token("a1"))) == .accepted)
    #expect(provider.connectionsOpened(.sandbox) == 2)
    let answered = try mock.entries(token: MockAPNs.token("a1"))
    #expect(answered.map { $0["connection"] as? Int } == [2])
  }

  /// An idle connection's PINGs are answered: it stays the one connection.
  @Test func answeredPingsKeepTheConnection() async throws {
    let mock = try await MockAPNs.start()
    let provider = try mock.provider(
      idlePingInterval: .milliseconds(50), pingTimeout: PeerProcess.patience)
    #expect(await provider.deliver(MockAPNs.delivery(token: MockAPNs.token("a2"))) == .accepted)
    #expect(
      try await PeerProcess.waitUntil { try mock.entries().filter { $0["ping"] != nil }.count >= 2 }
    )
    #expect(await provider.deliver(MockAPNs.delivery(token: MockAPNs.token("a3"))) == .accepted)
    #expect(provider.connectionsOpened(.sandbox) == 1)
    #expect(
      try mock.entries().allSatisfy { $0["ping"] == nil || $0["ping"] as? String == "answered" })
  }

  @Test func slowAnswerEndsAtTheDeadline() async throws {
    let token = MockAPNs.token("90")
    let mock = try await MockAPNs.start(tokens: [token: ["status": 200, "delay": 150]])
    let provider = try mock.provider(sendTimeout: .seconds(2))
    let clock = ContinuousClock()
    let started = clock.now
    #expect(await provider.deliver(MockAPNs.delivery(token: token)) == .networkFailure)
    // Far sooner than the answer (150 s), with room for a loaded machine.
    #expect(clock.now - started < .seconds(60))
    // The connection stays usable.
    #expect(await provider.deliver(MockAPNs.delivery(token: MockAPNs.token("91"))) == .accepted)
  }

  @Test func unknownCAAndWrongNameAreNetworkUnavailable() async throws {
    let mock = try await MockAPNs.start()
    let untrusted = try mock.provider(trustingCA: false, sendTimeout: .seconds(20))
    let answer = await untrusted.deliver(MockAPNs.delivery(token: MockAPNs.token("92")))
    #expect(answer == .networkFailure)
    #expect(answer.verdict == Self.networkUnavailable)
    let wrongName = try mock.provider(host: "127.0.0.1", sendTimeout: .seconds(20))
    #expect(
      await wrongName.deliver(MockAPNs.delivery(token: MockAPNs.token("93"))) == .networkFailure)
    #expect(try mock.entries().isEmpty)
  }

  @Test func nothingListeningIsNetworkUnavailableWithinTheDeadline() async throws {
    let mock = try await MockAPNs.start()
    let key = try APNsSigningKey(pem: mock.keyPEM, keyID: MockAPNs.keyID, teamID: MockAPNs.team)
    // A port nothing listens on: bind one, then close it.
    let closed = try #require(URL(string: "https://localhost:1"))
    let provider = APNsPushProvider(
      configuration: .init(
        signingKey: key, endpoints: [.sandbox: closed], sendTimeout: .seconds(1)))
    let clock = ContinuousClock()
    let started = clock.now
    #expect(
      await provider.deliver(MockAPNs.delivery(token: MockAPNs.token("94"))) == .networkFailure)
    // Bounded by the deadline (without it the reconnect loop would never end); room for load.
    #expect(clock.now - started < .seconds(30))
  }

  /// Drops, refusals and token refreshes are logged by status and reason only.
  @Test func logsNeverHoldATokenPayloadOrKey() async throws {
    let expiring = MockAPNs.token("95")
    let gone = MockAPNs.token("96")
    let mock = try await MockAPNs.start(
      tokens: [
        expiring: ["status": 200, "expire_jwt_once": true],
        gone: ["status": 410, "reason": "Unregistered"],
      ], arguments: ["--drop-after", "2"])
    let logs = Locked<[String]>([])
    let provider = try mock.provider(logs: logs)
    let deliveries = [
      MockAPNs.delivery(token: expiring), MockAPNs.delivery(token: gone),
      MockAPNs.delivery(token: MockAPNs.token("97")),
    ]
    for delivery in deliveries { _ = await provider.deliver(delivery) }
    let untrusted = try mock.provider(trustingCA: false, logs: logs)
    _ = await untrusted.deliver(MockAPNs.delivery(token: MockAPNs.token("98")))
    let lines = logs.withLock { $0 }
    #expect(lines.contains { $0.contains("ExpiredProviderToken") })
    #expect(lines.contains { $0.contains("410 Unregistered") })
    let keyLines = mock.keyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }
    for line in lines {
      for delivery in deliveries {
        #expect(!line.contains(delivery.deviceToken), "\(line)")
        #expect(!line.contains(delivery.request.envelope.ciphertext), "\(line)")
        #expect(!line.contains(delivery.eventID), "\(line)")
      }
      #expect(!line.contains("eyJ"), "a JWT in \(line)")
      for keyLine in keyLines { #expect(!line.contains(keyLine)) }
    }
  }
}
