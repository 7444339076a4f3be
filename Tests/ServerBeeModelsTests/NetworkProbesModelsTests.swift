import Foundation
import ServerBeeModels
import Testing

/// Network probe payloads (Protocol/AppRoutes.md §6): both target shapes decode into one type
/// (Protocol/AppRoutes.md §2.6), raw and hourly records, anomalies and the overview.
@Suite struct NetworkProbesModelsTests {
  @Test func bothTargetShapesDecodeIntoOneType() throws {
    let list = try APIResponse<[NetworkProbeTarget]>.payload(
      status: 200, body: Fixtures.data("network_probes/probe_targets.json"))
    #expect(list.count == 2)
    #expect(list[0].isPreset)
    #expect(list[0].sourceName == "Global")
    #expect(list[0].createdAt == nil)
    #expect(!list[1].isPreset)
    #expect(list[1].createdAt?.style == .utcOffset)
    let row = try APIResponse<NetworkProbeTarget>.payload(
      status: 200, body: Fixtures.data("network_probes/probe_target_row.json"))
    #expect(row.id == list[1].id)
    #expect(row.source == nil)
    #expect(row.probeType == .tcp)
    #expect(row.createdAt == list[1].createdAt)
    #expect(row.createdAt?.style == .zulu)
  }

  @Test func aTargetRequestSendsOnlyWhatIsSet() throws {
    let body = String(
      decoding: try WireJSON.encode(NetworkProbeTargetRequest(name: "HQ", probeType: .http)),
      as: UTF8.self)
    #expect(body == #"{"name":"HQ","probe_type":"http"}"#)
    #expect(!NetworkProbeTargetRequest(name: "HQ").isComplete)
  }

  @Test func summariesRecordsAnomaliesAndTheOverviewDecode() throws {
    let summary = try APIResponse<NetworkProbeServerSummary>.payload(
      status: 200, body: Fixtures.data("network_probes/probe_summary.json"))
    #expect(summary.targets.count == 2)
    #expect(summary.targets[1].avgLatency == nil)
    #expect(summary.targets[1].availability == 0)
    #expect(summary.anomalyCount == 3)
    let empty = try APIResponse<NetworkProbeServerSummary>.payload(
      status: 200, body: Fixtures.data("network_probes/probe_summary_no_records.json"))
    #expect(empty.lastProbeAt == nil)
    let raw = try APIResponse<[NetworkProbeRecord]>.payload(
      status: 200, body: Fixtures.data("network_probes/probe_records_raw.json"))
    #expect(raw[1].avgLatency == nil)
    #expect(raw[1].packetReceived == 0)
    let hourly = try APIResponse<[NetworkProbeRecord]>.payload(
      status: 200, body: Fixtures.data("network_probes/probe_records_hourly.json"))
    #expect(hourly.allSatisfy { $0.packetSent == $0.packetReceived })
    let anomalies = try APIResponse<[NetworkProbeAnomaly]>.payload(
      status: 200, body: Fixtures.data("network_probes/probe_anomalies.json"))
    #expect(
      anomalies.map(\.anomalyType) == [.veryHighLatency, .highPacketLoss, .unreachable])
    let overview = try APIResponse<[NetworkProbeFleetOverview]>.payload(
      status: 200, body: Fixtures.data("network_probes/probe_overview.json"))
    #expect(overview.allSatisfy { $0.latencySparkline.count == 30 && $0.lossSparkline.count == 30 })
    #expect(overview[0].latencySparkline[1] == nil)
    let setting = try APIResponse<NetworkProbeSetting>.payload(
      status: 200, body: Fixtures.data("network_probes/probe_setting.json"))
    #expect(
      setting
        == NetworkProbeSetting(
          interval: 60, packetCount: 10, defaultTargetIDs: ["preset-cloudflare-dns"]))
  }
}
