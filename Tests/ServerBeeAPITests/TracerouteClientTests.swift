import Foundation
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

/// The traceroute calls (Protocol/AppRoutes.md §7): the run that starts, polls and yields each
/// snapshot until done, its tolerance of the early 404, its timeout, and the offline agent as a
/// typed code.
@Suite(.timeLimit(.minutes(5))) struct TracerouteClientTests {
  let sut: SUT
  init() throws { sut = try SUT() }
  var api: ServerBeeAPIClient { sut.api }
  var http: StubHTTPTransport { sut.http }

  static func snapshot(hops: Int, completed: Bool) -> TracerouteSnapshot {
    TracerouteSnapshot(
      requestID: "r1", target: "example.com", protocol: .icmp, startedAt: 1_000,
      completedAt: completed ? 5_000 : nil, round: 1, totalRounds: 1, completed: completed,
      hops: (0..<hops).map { TracerouteHop(hop: $0 + 1, ips: ["198.51.100.\($0 + 1)"]) },
      error: nil)
  }

  static func notFound(_ message: String) -> HTTPResponse {
    HTTPResponse(
      status: 404,
      body: Data(#"{"error":{"code":"NOT_FOUND","message":"Not found: \#(message)"}}"#.utf8))
  }

  @Test func aRunStartsThenYieldsEachPollUntilItIsDone() async throws {
    await http.expect(
      .post, "/api/servers/s1/traceroute",
      reply: try Samples.reply(TracerouteStarted(requestID: "r1")))
    await http.expect(
      .get, "/api/servers/s1/traceroute/r1", reply: Self.notFound("Traceroute r1 not found"))
    await http.expect(
      .get, "/api/servers/s1/traceroute/r1",
      reply: try Samples.reply(Self.snapshot(hops: 2, completed: false)))
    await http.expect(
      .get, "/api/servers/s1/traceroute/r1",
      reply: try Samples.reply(Self.snapshot(hops: 5, completed: true)))
    let pauses = Pauses()
    var counts: [Int] = []
    for try await snapshot in api.runTraceroute(
      serverID: "s1", TracerouteRequest(target: "example.com")
    ).waiting(with: { await pauses.add($0) }) {
      counts.append(snapshot.hops.count)
    }
    #expect(counts == [2, 5])
    #expect(await pauses.all == [.seconds(2), .seconds(2), .seconds(2)])
  }

  @Test func aRunThatNeverFinishesEndsWithTimedOut() async throws {
    await http.expect(
      .post, "/api/servers/s1/traceroute",
      reply: try Samples.reply(TracerouteStarted(requestID: "r1")))
    for _ in 0..<3 {
      await http.expect(
        .get, "/api/servers/s1/traceroute/r1",
        reply: try Samples.reply(Self.snapshot(hops: 1, completed: false)))
    }
    var seen = 0
    let error = await #expect(throws: ServerBeeAPIError.self) {
      for try await _ in api.runTraceroute(
        serverID: "s1", TracerouteRequest(target: "example.com"), maxPolls: 3
      ).waiting(with: { _ in }) {
        seen += 1
      }
    }
    #expect(error?.code == .timedOut)
    #expect(seen == 3)
  }

  @Test func anOfflineAgentIsItsOwnCode() async throws {
    await http.expect(
      .post, "/api/servers/s1/traceroute", reply: Self.notFound("Server s1 is not online"))
    let error = await #expect(throws: ServerBeeAPIError.self) {
      _ = try await api.startTraceroute(serverID: "s1", TracerouteRequest(target: "1.1.1.1"))
    }
    #expect(error?.code == .agentOffline)
    #expect(error?.httpStatus == 404)
  }
}

/// The waits a run asked for.
private actor Pauses {
  var all: [Duration] = []
  func add(_ duration: Duration) { all.append(duration) }
}
