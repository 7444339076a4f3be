import Foundation
import ServerBeeModels
import Testing

/// Service monitor payloads (Protocol/AppRoutes.md §11): the documented examples decode, the
/// detail is the monitor flattened with `latest_record`, and decoding is as tolerant as the
/// official app's.
@Suite struct ServiceMonitorModelsTests {
  @Test func theExamplesDecode() throws {
    let list = try APIResponse<[ServiceMonitor]>.payload(
      status: 200, body: Fixtures.data("service_monitors/monitors.json"))
    #expect(list.map(\.monitorType) == [.ssl, .tcp])
    #expect(list[0].serverIDs == ["srv-1", "srv-2"])
    #expect(list[0].config?["warning_days"] == .number(14))
    #expect(list[1].lastStatus == nil && list[1].lastCheckedAt == nil && list[1].serverIDs == nil)
    let detail = try APIResponse<ServiceMonitorDetail>.payload(
      status: 200, body: Fixtures.data("service_monitors/monitor.json"))
    #expect(detail.monitor.monitorType == .httpKeyword)
    #expect(detail.monitor.consecutiveFailures == 2)
    #expect(detail.latestRecord?.id == 4812)
    #expect(detail.latestRecord?.detail?["status_code"] == .number(503))
    let unchecked = try APIResponse<ServiceMonitorDetail>.payload(
      status: 200, body: Fixtures.data("service_monitors/monitor_unchecked.json"))
    #expect(unchecked.latestRecord == nil)
    let records = try APIResponse<[ServiceMonitorRecord]>.payload(
      status: 200, body: Fixtures.data("service_monitors/records.json"))
    #expect(records.map(\.success) == [false, true])
    #expect(records[0].latency == nil && records[0].detail == .null)
    #expect(records[1].time.nanoseconds == 500_000_000)
  }

  @Test func aDetailEncodesFlatInTheServersOrderAndReadsBack() throws {
    let detail = try APIResponse<ServiceMonitorDetail>.payload(
      status: 200, body: Fixtures.data("service_monitors/monitor.json"))
    let text = String(decoding: try WireJSON.encode(detail), as: UTF8.self)
    #expect(text.hasPrefix(#"{"id":"9c1d2e3f-1111-4222-8333-444455556666","name":"Status page""#))
    #expect(text.contains(#""updated_at":"2026-11-30T12:01:00Z","latest_record":{"id":4812,"#))
    #expect(!text.contains(#""monitor":"#))
    #expect(try WireJSON.decode(ServiceMonitorDetail.self, from: Data(text.utf8)) == detail)
    let none = ServiceMonitorDetail(monitor: detail.monitor, latestRecord: nil)
    #expect(
      String(decoding: try WireJSON.encode(none), as: UTF8.self).hasSuffix(
        #""latest_record":null}"#))
  }

  @Test func decodingIsAsTolerantAsTheApp() throws {
    // A type a newer server adds, the nullable members and `latest_record` left out, and a
    // `detail_json` that is not JSON: all decode.
    let body = Data(
      #"""
      {"data":{"id":"m","name":"Ping","monitor_type":"icmp","target":"a.example","interval":60,
      "config_json":"not json","retry_count":1,"enabled":true,"consecutive_failures":0,
      "created_at":"2026-11-01T09:00:00+00:00","updated_at":"2026-11-01T09:00:00Z"}}
      """#.utf8)
    let detail = try APIResponse<ServiceMonitorDetail>.payload(status: 200, body: body)
    #expect(detail.monitor.monitorType == "icmp")
    #expect(detail.monitor.notificationGroupID == nil && detail.latestRecord == nil)
    #expect(detail.monitor.config == nil)
    let record = try WireJSON.decode(
      ServiceMonitorRecord.self,
      from: Data(
        #"{"id":1,"monitor_id":"m","success":true,"latency":null,"detail_json":"{","error":null,"time":"2026-11-01T09:00:00Z"}"#
          .utf8))
    #expect(record.detail == nil && record.detailJSON == "{")
    // A required member missing is still an error.
    #expect(throws: (any Error).self) {
      try WireJSON.decode(ServiceMonitor.self, from: Data(#"{"id":"m","name":"x"}"#.utf8))
    }
  }
}
