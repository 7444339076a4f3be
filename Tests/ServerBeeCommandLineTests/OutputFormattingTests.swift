import Foundation
import RealtimeStream
import ServerBeeModels
import Testing

@testable import ServerBeeCommandLine

@Suite struct OutputFormattingTests {
  @Test func tablesPadColumnsAlignNumbersRightAndTrimTrailingSpaces() {
    var table = TextTable(columns: [.left("NAME"), .right("CPU"), .left("NOTE")])
    table.append(["web-1", "5.0%", ""])
    table.append(["db", "12.5%", "busy"])
    #expect(
      table.render() == """
        NAME     CPU  NOTE
        web-1   5.0%
        db     12.5%  busy
        """)
  }

  @Test func missingCellsAreEmpty() {
    var table = TextTable(columns: [.left("A"), .left("B")])
    table.append(["only"])
    #expect(table.render() == "A     B\nonly")
  }

  @Test func bytesUseBinaryUnits() {
    #expect(Formatting.bytes(0) == "0 B")
    #expect(Formatting.bytes(1023) == "1023 B")
    #expect(Formatting.bytes(1536) == "1.5 KiB")
    #expect(Formatting.bytes(200 * 1024 * 1024) == "200 MiB")
    #expect(Formatting.bytes(16 << 30) == "16 GiB")
    #expect(Formatting.rate(2048) == "2.0 KiB/s")
  }

  @Test func percentagesShowADashForNonNumbersAndMissingTotals() {
    #expect(Formatting.percent(12.345) == "12.3%")
    #expect(Formatting.percent(.nan) == "-")
    #expect(Formatting.share(1, of: 4) == "25.0%")
    #expect(Formatting.share(1, of: 0) == "-")
  }

  @Test func timesAreUTCWithSeconds() {
    let date = Date(timeIntervalSince1970: 1_800_000_000.75)
    #expect(Formatting.time(date) == "2027-01-15 08:00:00Z")
    #expect(Formatting.isoTime(date) == "2027-01-15T08:00:00Z")
  }

  @Test func offlineServersShowDashesInsteadOfStaleMetrics() {
    let rows = [row(name: "web-1", online: true), row(name: "db", online: false)]
    let lines = Tables.servers(rows).split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[0].hasPrefix("NAME   STATE      CPU  MEMORY  DISK"))
    #expect(lines[1].hasPrefix("web-1  online   50.0%   25.0%     -"))
    #expect(lines[2].hasPrefix("db     offline      -       -"))
  }

  @Test func redrawModeMovesTheCursorBackOverThePreviousFrame() throws {
    var table = LiveTable(mode: .redraw, server: try ServerURL("http://127.0.0.1:1"))
    let first = try table.frame(FleetState(), at: Date(timeIntervalSince1970: 0))
    let second = try table.frame(FleetState(), at: Date(timeIntervalSince1970: 1))
    #expect(!first.contains("\u{1B}"))
    let lines = first.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
    #expect(second.hasPrefix("\u{1B}[\(lines)F\u{1B}[J"))
  }

  @Test func redrawModeCutsLinesSoNoneWrapsOnANarrowTerminal() throws {
    var table = LiveTable(mode: .redraw, server: try ServerURL("http://127.0.0.1:1"))
    let frame = try table.frame(FleetState(), at: Date(timeIntervalSince1970: 0), width: 20)
    let lines = frame.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { $0.count <= 19 })
    #expect(lines[0] == "http://127.0.0.1:1 ")
  }

  @Test func jsonModeWritesOneObjectPerLine() throws {
    var table = LiveTable(mode: .json, server: try ServerURL("http://127.0.0.1:1"))
    let frame = try table.frame(FleetState(), at: Date(timeIntervalSince1970: 0))
    #expect(
      frame == #"{"time":"1970-01-01T00:00:00Z","server":"http://127.0.0.1:1","servers":[]}"# + "\n"
    )
  }

  /// Metrics the server did not send are `null` (unknown), never `0`.
  @Test func serverRowsEncodeSnakeCaseKeysInDeclarationOrder() throws {
    let status = ServerStatus(
      id: "s1", name: "web-1", online: true, cpu: 50, memUsed: 1, memTotal: 4, load1: 0.5,
      os: "Debian")
    let encoded = String(
      decoding: try WireJSON.encode(ServerRow(status: status, configuration: nil)), as: UTF8.self)
    #expect(
      encoded
        == #"{"id":"s1","name":"web-1","online":true,"cpu":50.0,"mem_used":1,"mem_total":4,"#
        + #""disk_used":null,"disk_total":null,"net_in_speed":null,"net_out_speed":null,"#
        + #""load1":0.5,"uptime":null,"os":"Debian","region":null,"country_code":null,"group_id":null,"#
        + #""agent_version":null,"tags":[],"agent_authority":null,"has_token":null,"#
        + #""outstanding_enrollment":null}"#)
  }

  /// The agent's authority comes from the live status (kept current by
  /// `agent_authority_changed`), and from the REST configuration when the live entry has none
  /// (an older server's `full_sync`).
  @Test func serverRowsTakeTheAgentsAuthorityLiveElseFromTheConfiguration() throws {
    let time = RFC3339Timestamp(secondsSince1970: 1_800_000_000)
    let offer = OutstandingOffer(
      id: "o1", codePrefix: "sb_enr_6", expiresAt: time, createdAt: time)
    let configuration = ServerResponse(
      id: "s1", name: "web-1",
      agentAuthority: AgentAuthority(status: .unclaimed, outstandingOffer: offer),
      hasToken: false, outstandingEnrollment: offer, createdAt: time, updatedAt: time)
    let bare = ServerRow(
      status: ServerStatus(id: "s1", name: "web-1"), configuration: configuration)
    #expect(bare.agentAuthority == AgentAuthority(status: .unclaimed, outstandingOffer: offer))
    #expect(bare.hasToken == false && bare.outstandingEnrollment == offer)
    var status = ServerStatus(id: "s1", name: "web-1")
    status.agentAuthority = AgentAuthority(status: .claimed)
    status.hasToken = true
    let live = ServerRow(status: status, configuration: configuration)
    #expect(live.agentAuthority == AgentAuthority(status: .claimed))
    #expect(live.hasToken == true && live.outstandingEnrollment == nil)
  }

  private func row(name: String, online: Bool) -> ServerRow {
    let status = ServerStatus(
      id: name, name: name, online: online, cpu: 50, memUsed: 1, memTotal: 4, load1: 0.5)
    return ServerRow(status: status, configuration: nil)
  }
}
