import Foundation
import ServerBeeKit
import ServerBeeTestSupport
import StarterSupport
import Testing

/// The fleet board's lines from a live stream whose server end the test drives with the public
/// `FakeWebSocketTransport`.
@Suite(.timeLimit(.minutes(1))) struct FleetBoardTests {
  @Test func aFullSyncPrintsTheSummaryAndTheBusiestServers() async throws {
    let transport = FakeWebSocketTransport()
    let stream = MetricsStreamClient(
      server: try ServerURL("https://monitor.example.com"),
      tokens: StaticAccessTokenProvider("token-1"), transport: transport)
    await stream.start()
    var peers = transport.peers.makeAsyncIterator()
    let peer = try #require(await peers.next())
    let servers = [
      ServerStatus(id: "a", name: "web-1", online: true, cpu: 12.5, memUsed: 1, memTotal: 4),
      ServerStatus(id: "b", name: "db-1", online: true, cpu: 80, memUsed: 3, memTotal: 4),
      ServerStatus(id: "c", name: "old-1", online: false),
    ]
    let list = String(decoding: try WireJSON.encode(servers), as: UTF8.self)
    peer.send(#"{"type":"full_sync","servers":"# + list + #","upgrades":[]}"#)

    var board = FleetBoard(top: 2)
    var lines: [String]?
    var again: [String]?
    for await fleet in await stream.snapshots() where fleet.isSynchronized {
      lines = board.update(fleet, at: Date(timeIntervalSince1970: 3_723))
      again = board.update(fleet, at: Date(timeIntervalSince1970: 3_724))
      break
    }
    await stream.stop()

    #expect(
      lines == [
        "01:02:03Z  3 servers, 2 online, average CPU 46.2%",
        "  db-1  online   CPU 80.0%  memory 75.0%",
        "  web-1  online   CPU 12.5%  memory 25.0%",
      ])
    #expect(again == nil)  // nothing it shows changed
    #expect(transport.requests.first?.headers["authorization"] == "Bearer token-1")
  }

  @Test func anEmptyFleetIsOneLine() {
    var board = FleetBoard()
    #expect(
      board.update(FleetState(), at: Date(timeIntervalSince1970: 0))
        == ["00:00:00Z  0 servers, 0 online, average CPU -"])
  }
}
