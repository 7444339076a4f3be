import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Network probes (Protocol/AppRoutes.md §6): the two target shapes, the documented texts and
/// statuses, admin-only changes, raw versus hourly records, anomalies from the same samples as
/// the summary and the overview, and answers that depend only on the clock.
@Suite(.timeLimit(.minutes(5))) struct NetworkProbesAreaTests {
  /// 2027-01-15T08:00:00Z, the harness default.
  static let start: Int64 = 1_800_000_000

  struct World {
    let h: Harness
    let admin: String
    let member: String
    let server: String

    func get(_ path: String, as bearer: String? = nil) async -> Harness.Reply {
      await h.send(.get, path, bearer: bearer ?? admin)
    }

    func send(_ method: HTTPMethod, _ path: String, _ body: String, as bearer: String? = nil)
      async -> Harness.Reply
    {
      await h.send(method, path, raw: Data(body.utf8), bearer: bearer ?? admin)
    }

    /// `from` and `to` as a query, `seconds` before the clock up to it.
    func window(_ seconds: Int64, end: Int64 = NetworkProbesAreaTests.start) -> String {
      let from = RFC3339Timestamp(secondsSince1970: end - seconds).formatted(.zulu)
      let to = RFC3339Timestamp(secondsSince1970: end).formatted(.zulu)
      return "from=\(from)&to=\(to)"
    }
  }

  func world() async throws -> World {
    let h = try Harness()
    _ = await h.user("ada")
    _ = await h.user("bob", role: "member")
    let admin = try #require(await h.login("ada").1).access
    let member = try #require(await h.login("bob", installation: "INST-2").1).access
    let made = await h.control(.post, "/servers", ["name": "web-1", "online": true])
    return World(
      h: h, admin: admin, member: member,
      server: try #require(made?["data"]?["id"]?.stringValue))
  }

  func items(_ reply: Harness.Reply) -> [JSONValue] {
    guard case .array(let items) = reply.data else { return [] }
    return items
  }

  func number(_ value: JSONValue?) -> Double? {
    guard case .number(let n) = value else { return nil }
    return n
  }

  @Test func targetsListPresetsFirstThenCustomByNameInTheListShape() async throws {
    let w = try await world()
    for name in ["Zeta", "Alpha"] {
      let made = await w.send(
        .post, "/api/network-probes/targets",
        #"{"name":"\#(name)","provider":"ISP","location":"Berlin","target":"example.com","probe_type":"icmp"}"#
      )
      #expect(made.status == 200, "\(made.text)")
      // The stored row: no source keys, Z times.
      let row = try #require(made.data)
      #expect(row["source"] == nil)
      #expect(row["created_at"]?.stringValue?.hasSuffix("Z") == true)
    }
    let list = items(await w.get("/api/network-probes/targets", as: w.member))
    #expect(
      list.compactMap { $0["name"]?.stringValue } == [
        "Cloudflare DNS", "Google DNS", "Quad9 DNS", "Cloudflare Web", "Alpha", "Zeta",
      ])
    #expect(list[0]["source"]?.stringValue == "preset:global")
    #expect(list[0]["created_at"] == .null)
    #expect(list[4]["source"] == .null)
    #expect(list[4]["created_at"]?.stringValue == "2027-01-15T08:00:00+00:00")
    let perServer = items(await w.get("/api/servers/\(w.server)/network-probes/targets"))
    #expect(perServer == list)
    #expect(items(await w.get("/api/servers/nope/network-probes/targets")).isEmpty)
  }

  @Test func changesAreForAdminsWithTheDocumentedTexts() async throws {
    let w = try await world()
    let body =
      #"{"name":"Edge","provider":"ISP","location":"X","target":"10.0.0.1","probe_type":"icmp"}"#
    let denied = await w.send(.post, "/api/network-probes/targets", body, as: w.member)
    #expect(denied.status == 403)
    #expect(denied.body.isEmpty)
    let badType = await w.send(
      .post, "/api/network-probes/targets",
      #"{"name":"E","provider":"I","location":"X","target":"a.example","probe_type":"udp"}"#)
    #expect(badType.status == 422)
    #expect(badType.message == "Validation error: probe_type must be icmp, tcp, or http")
    let loopback = await w.send(
      .post, "/api/network-probes/targets",
      #"{"name":"E","provider":"I","location":"X","target":"127.0.0.1","probe_type":"icmp"}"#)
    #expect(loopback.status == 422)
    #expect(
      loopback.message?.hasPrefix(
        "Validation error: SSRF guard: target '127.0.0.1' points at a blocked address") == true)
    let missing = await w.send(.post, "/api/network-probes/targets", #"{"name":"E"}"#)
    #expect(missing.status == 422)
    let made = try #require(await w.send(.post, "/api/network-probes/targets", body).data)
    let id = try #require(made["id"]?.stringValue)

    let preset = await w.send(.put, "/api/network-probes/targets/preset-google-dns", "{}")
    #expect(preset.status == 403)
    #expect(preset.message == "Forbidden: Cannot modify a preset probe target")
    let unknown = await w.send(.put, "/api/network-probes/targets/nope", "{}")
    #expect(unknown.status == 404)
    #expect(unknown.message == "Not found: Probe target nope not found")
    let renamed = await w.send(.put, "/api/network-probes/targets/\(id)", #"{"name":"HQ"}"#)
    #expect(renamed.data?["name"]?.stringValue == "HQ")
    #expect(renamed.data?["target"]?.stringValue == "10.0.0.1")

    let deletePreset = await w.h.send(
      .delete, "/api/network-probes/targets/preset-google-dns", bearer: w.admin)
    #expect(deletePreset.status == 403)
    #expect(deletePreset.message == "Forbidden: Cannot delete a preset probe target")
    #expect(
      await w.h.send(.delete, "/api/network-probes/targets/nope", bearer: w.admin).status == 404)

    // A default target that is deleted leaves the setting.
    let set = await w.send(
      .put, "/api/network-probes/setting",
      #"{"interval":60,"packet_count":10,"default_target_ids":["\#(id)","preset-google-dns"]}"#)
    #expect(set.status == 200, "\(set.text)")
    let deleted = await w.h.send(.delete, "/api/network-probes/targets/\(id)", bearer: w.admin)
    #expect(deleted.status == 200)
    #expect(deleted.data == .string("ok"))
    let setting = try #require(await w.get("/api/network-probes/setting", as: w.member).data)
    #expect(setting["default_target_ids"] == .array([.string("preset-google-dns")]))
  }

  @Test func theSettingHasDefaultsAndChecksItsRanges() async throws {
    let w = try await world()
    let setting = await w.get("/api/network-probes/setting", as: w.member)
    #expect(setting.text == #"{"data":{"interval":60,"packet_count":10,"default_target_ids":[]}}"#)
    let cases: [(String, Int, String)] = [
      (
        #"{"interval":29,"packet_count":10,"default_target_ids":[]}"#, 400,
        "Bad request: interval must be between 30 and 600 seconds"
      ),
      (
        #"{"interval":601,"packet_count":10,"default_target_ids":[]}"#, 400,
        "Bad request: interval must be between 30 and 600 seconds"
      ),
      (
        #"{"interval":30,"packet_count":4,"default_target_ids":[]}"#, 400,
        "Bad request: packet_count must be between 5 and 20"
      ),
      (
        #"{"interval":30,"packet_count":21,"default_target_ids":[]}"#, 400,
        "Bad request: packet_count must be between 5 and 20"
      ),
      (
        #"{"interval":30,"packet_count":5,"default_target_ids":["nope"]}"#, 422,
        "Validation error: Invalid target ID in default_target_ids: nope"
      ),
    ]
    for (body, status, message) in cases {
      let reply = await w.send(.put, "/api/network-probes/setting", body)
      #expect(reply.status == status, "\(body)")
      #expect(reply.message == message, "\(body)")
    }
    let missing = await w.send(.put, "/api/network-probes/setting", #"{"interval":60}"#)
    #expect(missing.status == 422)
    #expect(missing.json == nil)
    let member = await w.send(
      .put, "/api/network-probes/setting",
      #"{"interval":60,"packet_count":10,"default_target_ids":[]}"#, as: w.member)
    #expect(member.status == 403)
    #expect(member.body.isEmpty)
    let echo = await w.send(
      .put, "/api/network-probes/setting",
      #"{"interval":600,"packet_count":20,"default_target_ids":["preset-quad9-dns"]}"#)
    #expect(
      echo.text
        == #"{"data":{"interval":600,"packet_count":20,"default_target_ids":["preset-quad9-dns"]}}"#
    )
  }

  @Test func recordsAreRawUnderADayAndHourlyFromADay() async throws {
    let w = try await world()
    let base = "/api/servers/\(w.server)/network-probes/records?"
    let raw = items(await w.get(base + w.window(3600) + "&target_id=preset-google-dns"))
    // One sample a minute, both ends included.
    #expect(raw.count == 61)
    #expect(raw.first?["timestamp"]?.stringValue == "2027-01-15T07:00:00+00:00")
    #expect(raw.last?["timestamp"]?.stringValue == "2027-01-15T08:00:00+00:00")
    #expect(raw.allSatisfy { number($0["packet_sent"]) == 10 })
    let all = items(await w.get(base + w.window(3600)))
    #expect(all.count == 61 * 4)

    let hourly = items(await w.get(base + w.window(86_400) + "&target_id=preset-google-dns"))
    // The hours starting from 08:00 yesterday to 08:00 today; today's 08:00 has one sample.
    #expect(hourly.count == 25)
    #expect(hourly.first?["timestamp"]?.stringValue == "2027-01-14T08:00:00+00:00")
    let full = try #require(hourly.dropLast().last)
    #expect(number(full["packet_sent"]) == 60)
    #expect(number(full["packet_received"]) == 60)
    #expect(number(hourly.last?["packet_sent"]) == 1)
    // The hour's loss is the mean of its samples'.
    let hour = items(
      await w.get(
        base + w.window(3599, end: Self.start - 60) + "&target_id=preset-google-dns"))
    #expect(hour.count == 60)
    let mean = hour.compactMap { number($0["packet_loss"]) }.reduce(0, +) / 60
    #expect(abs((number(full["packet_loss"]) ?? -1) - mean) < 1e-6)

    let missing = await w.get("/api/servers/\(w.server)/network-probes/records?from=x")
    #expect(missing.status == 400)
    #expect(missing.json == nil)
  }

  @Test func anomaliesFollowTheRulesNewestFirstAndAgreeWithTheSummary() async throws {
    let w = try await world()
    let reply = await w.get("/api/servers/\(w.server)/network-probes/anomalies?" + w.window(86_400))
    let anomalies = items(reply)
    #expect(!anomalies.isEmpty, "\(reply.text)")
    let times = anomalies.compactMap { $0["timestamp"]?.stringValue }
    #expect(times == times.sorted(by: >))
    for anomaly in anomalies {
      let value = try #require(number(anomaly["value"]))
      switch anomaly["anomaly_type"]?.stringValue {
      case "unreachable": #expect(value == 1)
      case "very_high_latency": #expect(value > 800)
      case "high_latency": #expect(value > 500 && value <= 800)
      case "very_high_packet_loss": #expect(value > 0.5 && value < 1)
      case "high_packet_loss": #expect(value > 0.1 && value <= 0.5)
      default: Issue.record("unknown type: \(anomaly)")
      }
    }
    let summary = try #require(await w.get("/api/servers/\(w.server)/network-probes/summary").data)
    #expect(number(summary["anomaly_count"]) == Double(anomalies.count))
    #expect(summary["last_probe_at"]?.stringValue == "2027-01-15T08:00:00+00:00")
    guard case .array(let targets) = summary["targets"] else {
      Issue.record("targets: \(summary)")
      return
    }
    #expect(targets.count == 4)
    // Each target's summary is its latest record.
    let latest = items(
      await w.get(
        "/api/servers/\(w.server)/network-probes/records?" + w.window(0)
          + "&target_id=preset-cloudflare-dns"))
    let first = try #require(targets.first)
    #expect(first["avg_latency"] == latest.first?["avg_latency"])
    let loss = try #require(number(first["packet_loss"]))
    #expect(abs((number(first["availability"]) ?? 0) - (1 - loss)) < 1e-9)

    let unknown = await w.get("/api/servers/nope/network-probes/summary")
    #expect(unknown.status == 404)
    #expect(unknown.message == "Not found: Server nope not found")
  }

  @Test func theOverviewHasThirtySlotsEndingAtTheNewestProbe() async throws {
    let w = try await world()
    let overview = items(await w.get("/api/network-probes/overview", as: w.member))
    let entry = try #require(overview.first { $0["server_id"]?.stringValue == w.server })
    guard case .array(let latency) = entry["latency_sparkline"],
      case .array(let loss) = entry["loss_sparkline"]
    else {
      Issue.record("sparklines: \(entry)")
      return
    }
    #expect(latency.count == 30)
    #expect(loss.count == 30)
    #expect(loss.allSatisfy { $0 != .null })
    let summary = try #require(await w.get("/api/servers/\(w.server)/network-probes/summary").data)
    #expect(entry["targets"] == summary["targets"])
    #expect(entry["anomaly_count"] == summary["anomaly_count"])
    #expect(entry["last_probe_at"] == summary["last_probe_at"])
  }

  @Test func theSameClockGivesTheSameAnswers() async throws {
    let a = try await world()
    let b = try await world()
    // Server ids differ between worlds; compare one world's answers twice, and the shape of the
    // other's.
    let path = "/api/servers/\(a.server)/network-probes/records?" + a.window(7 * 86_400)
    let first = await a.get(path)
    let again = await a.get(path)
    #expect(first.status == 200)
    #expect(first.body == again.body)
    #expect(items(first).count == 7 * 24 * 4 + 4)
    let other = await b.get(
      "/api/servers/\(b.server)/network-probes/records?" + b.window(7 * 86_400))
    #expect(items(other).count == items(first).count)
    // The clock moves: the newest probe moves with it.
    a.h.clock.advance(by: 120)
    let later = try #require(await a.get("/api/servers/\(a.server)/network-probes/summary").data)
    #expect(later["last_probe_at"]?.stringValue == "2027-01-15T08:02:00+00:00")
  }

  /// A week holds far more than 500 anomalous records: the anomalies come from the newest 500
  /// of them only, found here from the raw records themselves (half-day windows, newest first)
  /// with the documented thresholds.
  @Test func anomaliesComeFromTheNewest500AnomalousRecordsOnly() async throws {
    let w = try await world()
    let order = items(await w.get("/api/network-probes/targets")).compactMap {
      $0["id"]?.stringValue
    }
    #expect(order.count == 4)
    var expected: [(time: String, target: String)] = []
    var end = Self.start
    while expected.count < 600 {
      let window = items(
        await w.get(
          "/api/servers/\(w.server)/network-probes/records?" + w.window(43_199, end: end)))
      #expect(window.count == 720 * 4)
      let anomalous = window.filter {
        (number($0["avg_latency"]) ?? 0) > 500 || (number($0["packet_loss"]) ?? 0) > 0.1
      }
      let newestFirst = anomalous.compactMap { record -> (String, String, Int)? in
        guard let time = record["timestamp"]?.stringValue,
          let target = record["target_id"]?.stringValue, let index = order.firstIndex(of: target)
        else { return nil }
        return (time, target, index)
      }.sorted { ($0.0, -$0.2) > ($1.0, -$1.2) }
      expected += newestFirst.map { ($0.0, $0.1) }
      end -= 43_200
    }
    let reply = await w.get(
      "/api/servers/\(w.server)/network-probes/anomalies?" + w.window(7 * 86_400))
    // One record may give two anomalies (latency and loss), one after the other.
    var records: [(time: String, target: String)] = []
    for anomaly in items(reply) {
      let key = (anomaly["timestamp"]?.stringValue ?? "", anomaly["target_id"]?.stringValue ?? "")
      if records.last.map({ $0 != key }) ?? true { records.append(key) }
    }
    #expect(records.count == NetworkProbesArea.anomalousRecordLimit)
    #expect(records.count == 500)
    #expect(records.elementsEqual(expected.prefix(500)) { $0 == $1 })
    // The oldest anomaly is at or after the 500th newest anomalous record, not a week back.
    #expect(records.last?.time == expected[499].time)
  }
}
