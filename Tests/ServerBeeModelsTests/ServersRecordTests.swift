import Foundation
import ServerBeeModels
import Testing

@Suite struct ServersRecordTests {
  private func records() throws -> [ServerRecord] {
    try APIResponse<[ServerRecord]>.payload(
      status: 200, body: Fixtures.data("servers/records.json"))
  }

  @Test func aRecordMissingOptionalColumnsDecodesThemAsNilAndReadsAliases() throws {
    let body =
      #"{"data":[{"id":1,"server_id":"s1","time":"2026-03-28T10:15:30Z","cpu_usage":7.5,"#
      + #""memory_used":9,"tcp_count":3}]}"#
    let rows = try APIResponse<[ServerRecord]>.payload(status: 200, body: Data(body.utf8))
    let row = try #require(rows.first)
    #expect(row.cpu == 7.5)
    #expect(row.memUsed == 9)
    #expect(row.tcpConn == 3)
    #expect(row.diskUsed == nil)
    #expect(row.load1 == nil)
    #expect(row.temperature == nil)
    #expect(row.diskIO == nil)
  }

  @Test func aRowWithOnlyItsTimeDecodesAndIsIdentifiedByIt() throws {
    let path = "servers/records_time_only.json"
    let rows = try APIResponse<[ServerRecord]>.payload(status: 200, body: Fixtures.data(path))
    #expect(rows.count == 2)
    #expect(rows.map(\.rowID) == [nil, nil])
    #expect(rows.map(\.serverID) == [nil, nil])
    #expect(rows[0].id == (try RFC3339Timestamp(parsing: "2026-03-28T10:00:00Z")))
    #expect(rows[0].cpu == 12.5)
    #expect(rows[0].memUsed == 2_147_483_648)
    #expect(rows[1].cpu == nil)
    #expect(Set(rows.map(\.id)).count == 2)
  }

  @Test func aRowWithoutItsTimeIsRefusedNamingIt() {
    let body = #"{"data":[{"id":1,"server_id":"s1","cpu":3}]}"#
    #expect(throws: (any Error).self) {
      try APIResponse<[ServerRecord]>.payload(status: 200, body: Data(body.utf8))
    }
  }

  @Test func aTimeOnlyRowIsWrittenBackWithoutIdsItNeverHad() throws {
    let path = "servers/records_time_only.json"
    let reencoded = try Fixtures.reencoded(APIResponse<[ServerRecord]>.self, path)
    #expect(!reencoded.contains(#""id""#))
    #expect(!reencoded.contains("server_id"))
    #expect(reencoded.contains(#""time":"2026-03-28T10:00:00Z","cpu":12.5"#))
  }

  @Test func recordsDecodeWithTheirMetrics() throws {
    let rows = try records()
    #expect(rows.map(\.rowID) == [1001, 1002, 1003, 1004])
    #expect(rows[0].time == (try RFC3339Timestamp(parsing: "2026-03-28T10:00:00Z")))
    #expect(rows[0].cpu == 12.5)
    #expect(rows[0].netInTransfer == 987_654_321)
    #expect(rows[0].temperature == nil)
    #expect(rows[1].cpu == 100)
    #expect(rows[1].temperature == 48.5)
    #expect(rows[1].gpuUsage == 3.25)
    #expect(rows[1].time.nanoseconds == 123_456_789)
  }

  @Test func diskIOJSONStringIsDecodedIntoDisks() throws {
    let row = try records()[0]
    #expect(
      row.diskIO == [
        DiskIO(name: "sda", readBytesPerSec: 0, writeBytesPerSec: 4096),
        DiskIO(name: "nvme0n1", readBytesPerSec: 1_048_576, writeBytesPerSec: 0),
      ])
    #expect(try row.decodeDiskIO() == row.diskIO)
    #expect(row.diskIOJSON?.hasPrefix(#"[{"name":"sda""#) == true)
  }

  @Test func nullAndEmptyDiskIOJSON() throws {
    let rows = try records()
    #expect(rows[1].diskIOJSON == nil)
    #expect(rows[1].diskIO == nil)
    #expect(try rows[1].decodeDiskIO() == nil)
    #expect(rows[3].diskIO == [])
  }

  @Test func invalidDiskIOJSONKeepsTheRecordAndTheRawText() throws {
    let row = try records()[2]
    #expect(row.cpu == 7)
    #expect(row.diskIOJSON == "not json [")
    #expect(row.diskIO == nil)
    let error = try #require(throws: ServerBeeModelsError.self) { try row.decodeDiskIO() }
    #expect(error.code == .malformedJSON)
  }

  @Test func diskIOWithWrongMembersReportsTheField() throws {
    let row = ServerRecord(
      rowID: 1, serverID: "s", time: RFC3339Timestamp(secondsSince1970: 0),
      diskIOJSON: #"[{"name":"sda","read_bytes_per_sec":"fast","write_bytes_per_sec":0}]"#)
    #expect(row.diskIO == nil)
    let error = try #require(throws: ServerBeeModelsError.self) { try row.decodeDiskIO() }
    #expect(error.code == .invalidField)
    #expect(error.message.contains("[0].read_bytes_per_sec"))
  }

  @Test func settingDiskIOJSONReparsesDisks() {
    var row = ServerRecord(rowID: 1, serverID: "s", time: RFC3339Timestamp(secondsSince1970: 0))
    #expect(row.diskIO == nil)
    row.diskIOJSON = ServerRecord.diskIOJSON(for: [
      DiskIO(name: "vda", readBytesPerSec: 1, writeBytesPerSec: 2)
    ])
    #expect(row.diskIOJSON == #"[{"name":"vda","read_bytes_per_sec":1,"write_bytes_per_sec":2}]"#)
    #expect(row.diskIO == [DiskIO(name: "vda", readBytesPerSec: 1, writeBytesPerSec: 2)])
  }

  @Test func recordsReencodeToTheSameBytes() throws {
    let path = "servers/records.json"
    #expect(try Fixtures.reencoded(APIResponse<[ServerRecord]>.self, path) == Fixtures.text(path))
  }

  @Test func nullMetricFloatDecodesAsNaN() throws {
    let body = try Fixtures.text("servers/records.json")
      .replacingOccurrences(of: #""cpu":12.5"#, with: #""cpu":null"#)
    let rows = try APIResponse<[ServerRecord]>.payload(status: 200, body: Data(body.utf8))
    #expect(rows[0].cpu?.isNaN == true)
  }

  @Test func recordMissingTimeThrowsNamingTheField() throws {
    let body = #"{"data":[{"id":1,"server_id":"s","cpu":1.0}]}"#
    let error = try #require(throws: ServerBeeModelsError.self) {
      try APIResponse<[ServerRecord]>.payload(status: 200, body: Data(body.utf8))
    }
    #expect(error.code == .missingField)
    #expect(error.message.contains("data[0].time"))
  }

  @Test func recordsQueryUsesTheZuluFormAndTheInterval() throws {
    let query = ServerRecordsQuery(
      from: try RFC3339Timestamp(parsing: "2026-03-28T10:00:00+00:00"),
      to: try RFC3339Timestamp(parsing: "2026-03-29T10:00:00.5+00:00"), interval: .hourly)
    #expect(
      query.queryItems == [
        URLQueryItem(name: "from", value: "2026-03-28T10:00:00Z"),
        URLQueryItem(name: "to", value: "2026-03-29T10:00:00.500Z"),
        URLQueryItem(name: "interval", value: "hourly"),
      ])
    #expect(ServerRecordsQuery(from: query.from, to: query.to).interval == .auto)
  }

  @Test func aRecentRangeEndsAtTheGivenTimeAndReachesBackItsDuration() throws {
    let end = try RFC3339Timestamp(parsing: "2026-03-29T10:00:00Z").date
    let week = ServerRecordsQuery(last: .seconds(7 * 24 * 3600), endingAt: end)
    #expect(week.from.formatted(.zulu) == "2026-03-22T10:00:00Z")
    #expect(week.to.formatted(.zulu) == "2026-03-29T10:00:00Z")
    #expect(week.interval == .auto)
    let hour = ServerRecordsQuery(last: .seconds(-3600), endingAt: end, interval: .raw)
    #expect(hour.from.formatted(.zulu) == "2026-03-29T09:00:00Z")
    #expect(hour.interval == .raw)
  }
}
