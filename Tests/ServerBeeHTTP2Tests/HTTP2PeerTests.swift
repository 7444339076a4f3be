import Foundation
import ServerBeeHTTP2
import ServerBeeTestHarness
import ServerBeeTransport
import Testing

/// ServerBeeHTTP2 against the Python `h2` package over TLS with a test CA (Tests/Peers/
/// apns_peer.py's generic paths): ALPN, framing, HPACK both ways, flow control, CONTINUATION,
/// stream limits, GOAWAY, deadlines and certificate checks.
@Suite(.timeLimit(.minutes(5))) struct HTTP2PeerTests {
  /// A running peer, its PKI and its request log.
  final class Peer: Sendable {
    let process: PeerProcess
    let pki: TestPKI
    let port: UInt16
    let log: URL
    let directory: TemporaryDirectory

    static func start(_ arguments: [String] = []) async throws -> Peer {
      let pki = try await TestPKI()
      let directory = try TemporaryDirectory()
      let log = directory.url.appendingPathComponent("log.jsonl")
      let process = try await PeerProcess.pythonHTTP2(
        "apns_peer.py",
        [
          "--cert", pki.leafCertificate.path, "--key", pki.leafKey.path, "--log", log.path,
        ] + arguments)
      return Peer(
        process: process, pki: pki, port: try await process.port(), log: log,
        directory: directory)
    }

    init(
      process: PeerProcess, pki: TestPKI, port: UInt16, log: URL,
      directory: consuming TemporaryDirectory
    ) {
      self.process = process
      self.pki = pki
      self.port = port
      self.log = log
      self.directory = directory
    }

    func connect(
      host: String = "localhost", trust: TLSTrust? = nil,
      options: HTTP2ClientConnection.Options = .init()
    ) async throws(HTTP2Error) -> HTTP2ClientConnection {
      try await HTTP2ClientConnection.connect(
        host: host, port: port, trust: trust ?? TLSTrust(additionalCAFile: pki.caFile),
        options: options, deadline: .now + PeerProcess.patience)
    }

    /// The log lines written so far.
    func entries() throws -> [[String: Any]] {
      guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
      return try text.split(separator: "\n").map {
        try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
      }
    }
  }

  static var later: ContinuousClock.Instant { .now + PeerProcess.patience }

  @Test func echoesABodyAndReusesTheHPACKContext() async throws {
    let peer = try await Peer.start()
    let connection = try await peer.connect()
    for index in 0..<3 {
      let body = Array("hello \(index)".utf8)
      let response = try await connection.send(
        HTTP2Request(
          method: "POST", path: "/echo", headers: [HPACKField("x-test", "same value")], body: body),
        deadline: Self.later)
      #expect(response.status == 200)
      #expect(response.body == body)
      #expect(response.header("content-length") == String(body.count))
    }
    #expect(connection.streamsOpened == 3)
    let entries = try peer.entries()
    #expect(entries.count == 3)
    #expect(Set(entries.compactMap { $0["connection"] as? Int }) == [1])
    #expect(entries.compactMap { $0["stream"] as? Int } == [1, 3, 5])
    let headers = try #require(entries.last?["headers"] as? [String: String])
    #expect(headers["x-test"] == "same value")
    #expect(headers[":authority"] == "localhost:\(peer.port)")
  }

  /// 1 MiB answered through the 65,535-octet stream window: only our WINDOW_UPDATEs let it
  /// finish.
  @Test func receivesABodyLargerThanTheWindow() async throws {
    let peer = try await Peer.start()
    let connection = try await peer.connect(
      options: .init(maximumResponseBodySize: 2 << 20))
    let response = try await connection.send(
      HTTP2Request(method: "GET", path: "/bytes/1048576"), deadline: Self.later)
    #expect(response.status == 200)
    #expect(response.body.count == 1_048_576)
    #expect(response.body.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })
  }

  /// A 300 KiB request body against the peer's 65,535-octet windows: sent as its WINDOW_UPDATEs
  /// arrive, in frames no larger than its SETTINGS_MAX_FRAME_SIZE.
  @Test func sendsABodyLargerThanThePeersWindow() async throws {
    let peer = try await Peer.start()
    let connection = try await peer.connect(options: .init(maximumResponseBodySize: 1 << 20))
    let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
    let response = try await connection.send(
      HTTP2Request(method: "POST", path: "/echo", body: body), deadline: Self.later)
    #expect(response.body == body)
  }

  @Test func bodyLargerThanTheLimitIsMalformed() async throws {
    let peer = try await Peer.start()
    let connection = try await peer.connect(options: .init(maximumResponseBodySize: 1000))
    await #expect(throws: HTTP2Error.malformedResponse("the response body is too large")) {
      try await connection.send(
        HTTP2Request(method: "GET", path: "/bytes/5000"), deadline: Self.later)
    }
    // The connection goes on.
    let response = try await connection.send(
      HTTP2Request(method: "GET", path: "/bytes/10"), deadline: Self.later)
    #expect(response.body.count == 10)
  }

  /// 100 headers of 200+ octets: a header block over 16 KiB, so the peer needs CONTINUATION
  /// frames and our decoder its Huffman and table paths.
  @Test func decodesAHeaderBlockSplitIntoContinuations() async throws {
    let peer = try await Peer.start()
    let connection = try await peer.connect(
      options: .init(maximumHeaderListSize: 64 * 1024))
    let response = try await connection.send(
      HTTP2Request(method: "GET", path: "/headers/100"), deadline: Self.later)
    #expect(response.status == 200)
    #expect(response.header("x-filler-99") == String(repeating: "v", count: 200) + "99")
    #expect(response.headers.filter { $0.name.hasPrefix("x-filler-") }.count == 100)
  }

  /// The peer allows 3 concurrent streams: 30 requests all succeed, never more than 3 open.
  @Test func respectsThePeersStreamLimit() async throws {
    let peer = try await Peer.start(["--max-streams", "3"])
    let connection = try await peer.connect()
    try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<30 {
        group.addTask {
          try await connection.send(
            HTTP2Request(method: "GET", path: "/slow/300"), deadline: Self.later
          )
          .status
        }
      }
      for try await status in group { #expect(status == 200) }
    }
    let entries = try peer.entries()
    #expect(entries.count == 30)
    let most = entries.compactMap { $0["open_streams"] as? Int }.max() ?? 0
    #expect(most <= 3)
    #expect(most >= 2)
  }

  /// A peer that allows 64 KiB frames still gets frames of at most 16,384 octets (always
  /// allowed; Python h2 itself refuses a larger frame read together with our SETTINGS ACK).
  @Test func keepsTheDefaultFrameSizeWhenThePeerAllowsMore() async throws {
    let peer = try await Peer.start(["--max-frame", "65536"])
    let connection = try await peer.connect()
    let body = [UInt8](repeating: 0x61, count: 60_000)
    do {
      let response = try await connection.send(
        HTTP2Request(method: "POST", path: "/echo", body: body), deadline: Self.later)
      #expect(response.body == body)
    } catch {
      Issue.record("\(error); the peer logged \(try peer.entries())")
    }
  }

  /// GOAWAY after the 2nd request: both answered; the connection refuses new requests with an
  /// error that is safe to retry.
  @Test func goAwayStopsNewRequests() async throws {
    let peer = try await Peer.start(["--goaway-after", "2"])
    let connection = try await peer.connect()
    for _ in 0..<2 {
      let response = try await connection.send(
        HTTP2Request(method: "POST", path: "/echo", body: [1]), deadline: Self.later)
      #expect(response.status == 200)
    }
    do {
      _ = try await connection.send(
        HTTP2Request(method: "POST", path: "/echo", body: [1]), deadline: Self.later)
      Issue.record("a request after GOAWAY succeeded")
    } catch {
      #expect(error.isSafeToRetry)
    }
    #expect(!connection.isAcceptingRequests)
  }

  /// A request whose deadline passes ends with `timedOut` (its stream reset); the next one on
  /// the same connection works.
  @Test func deadlineResetsTheStream() async throws {
    let peer = try await Peer.start()
    let connection = try await peer.connect()
    let clock = ContinuousClock()
    let started = clock.now
    await #expect(throws: HTTP2Error.timedOut) {
      try await connection.send(
        HTTP2Request(method: "GET", path: "/slow/120000"), deadline: .now + .milliseconds(300))
    }
    // Far sooner than the answer (2 minutes), with room for a loaded machine.
    #expect(clock.now - started < .seconds(60))
    let response = try await connection.send(
      HTTP2Request(method: "POST", path: "/echo", body: [9]), deadline: Self.later)
    #expect(response.body == [9])
  }

  @Test func cancellationEndsTheRequest() async throws {
    let peer = try await Peer.start()
    let connection = try await peer.connect()
    let task = Task {
      try await connection.send(
        HTTP2Request(method: "GET", path: "/slow/10000"), deadline: Self.later)
    }
    try await Task.sleep(for: .milliseconds(200))
    task.cancel()
    await #expect(throws: HTTP2Error.cancelled) { try await task.value }
  }

  @Test func unknownCAIsUntrusted() async throws {
    let peer = try await Peer.start()
    await #expect {
      try await peer.connect(trust: TLSTrust(additionalCAFile: peer.pki.otherCAFile))
    } throws: { error in
      if case .untrustedServer = error as? HTTP2Error { return true }
      return false
    }
  }

  @Test func wrongNameIsUntrusted() async throws {
    let peer = try await Peer.start()
    await #expect {
      try await peer.connect(host: "127.0.0.1")
    } throws: { error in
      if case .untrustedServer = error as? HTTP2Error { return true }
      return false
    }
  }

  /// An idle connection PINGs the peer (Python h2 acknowledges), again after each ACK, and
  /// stays usable.
  @Test func idleConnectionSendsPingsThatThePeerAnswers() async throws {
    let peer = try await Peer.start()
    let connection = try await peer.connect(
      options: .init(idlePingInterval: .milliseconds(50), pingTimeout: PeerProcess.patience))
    _ = try await connection.send(
      HTTP2Request(method: "POST", path: "/echo", body: [1]), deadline: Self.later)
    #expect(try await PeerProcess.waitUntil { connection.pingsAcknowledged >= 2 })
    #expect(connection.isAcceptingRequests)
    let pings = try peer.entries().filter { $0["ping"] != nil }
    #expect(pings.count >= 2)
    #expect(pings.allSatisfy { $0["ping"] as? String == "answered" })
    let response = try await connection.send(
      HTTP2Request(method: "POST", path: "/echo", body: [2]), deadline: Self.later)
    #expect(response.body == [2])
  }

  /// Without an interval (the default) no PING goes out, even over a 300 ms answer.
  @Test func noPingWithoutAnInterval() async throws {
    let peer = try await Peer.start()
    let connection = try await peer.connect()
    _ = try await connection.send(
      HTTP2Request(method: "GET", path: "/slow/300"), deadline: Self.later)
    #expect(connection.pingsAcknowledged == 0)
    #expect(try peer.entries().allSatisfy { $0["ping"] == nil })
  }

  /// The peer swallows the PING: after the ping timeout the connection closes itself, and a
  /// request then fails as never processed. (No request before: on a loaded machine the PING
  /// could go out first and fail it.)
  @Test func unansweredPingClosesTheConnection() async throws {
    let peer = try await Peer.start(["--unanswered-pings"])
    let connection = try await peer.connect(
      options: .init(idlePingInterval: .milliseconds(50), pingTimeout: .milliseconds(200)))
    #expect(try await PeerProcess.waitUntil { !connection.isAcceptingRequests })
    #expect(connection.pingsAcknowledged == 0)
    #expect(try await PeerProcess.waitUntil { try peer.entries().contains { $0["closed"] != nil } })
    #expect(try peer.entries().contains { $0["ping"] as? String == "unanswered" })
    await #expect {
      try await connection.send(
        HTTP2Request(method: "POST", path: "/echo", body: [2]), deadline: Self.later)
    } throws: { error in
      (error as? HTTP2Error)?.isSafeToRetry == true
    }
  }

  /// The peer closes the socket mid-request: the request fails with `connectionLost`.
  @Test func droppedConnectionFailsTheRequestsInFlight() async throws {
    let peer = try await Peer.start(["--drop-after", "1"])
    let connection = try await peer.connect()
    await #expect {
      try await connection.send(
        HTTP2Request(method: "POST", path: "/echo", body: [1]), deadline: Self.later)
    } throws: { error in
      if case .connectionLost = error as? HTTP2Error { return true }
      return false
    }
    #expect(!connection.isAcceptingRequests)
  }

  /// Raw frames behind h2's back: a PUSH_PROMISE (push is off) and an undecodable header block
  /// end the connection with a protocol error; a response without `:status` fails that request
  /// only.
  @Test func brokenAnswersAreRefused() async throws {
    let peer = try await Peer.start()
    let connection = try await peer.connect()
    await #expect {
      try await connection.send(
        HTTP2Request(method: "GET", path: "/raw/no-status"), deadline: Self.later)
    } throws: { error in
      (error as? HTTP2Error) == .malformedResponse("the response has no valid :status")
    }
    let fine = try await connection.send(
      HTTP2Request(method: "POST", path: "/echo", body: [7]), deadline: Self.later)
    #expect(fine.body == [7])
    for path in ["/raw/push-promise", "/raw/bad-hpack"] {
      let fresh = try await peer.connect()
      await #expect {
        try await fresh.send(HTTP2Request(method: "GET", path: path), deadline: Self.later)
      } throws: { error in
        guard case .protocolViolation(let code, _) = error as? HTTP2Error else { return false }
        return code == (path == "/raw/bad-hpack" ? .compressionError : .protocolError)
      }
      #expect(!fresh.isAcceptingRequests)
    }
  }
}
