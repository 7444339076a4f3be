import ServerBeeModels
import ServerBeeTransport

// Network probe reports (Protocol/AppRoutes.md §6): one server's summary, targets, records and
// anomalies, and the fleet overview, all read from ``NetworkProbeHistory``.

extension NetworkProbesArea {
  /// One anomaly found in a record.
  struct Anomaly {
    let time: Int64
    let target: ProbeTargetInfo
    let type: String
    let value: Double
  }

  /// The most anomalous records one request scans.
  static let anomalousRecordLimit = 500

  /// `GET /api/servers/{id}/network-probes/summary`: 404 `Server <id> not found` for an
  /// unknown server.
  func serverProbeSummary(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard let row = try core.server(id: id) else {
      throw APIError.notFound("Server \(id) not found")
    }
    let report = try report(row)
    return Reply.data(
      JSONValue.object([
        ("server_id", .string(row.id)), ("server_name", .string(row.name)),
        ("online", .bool(row.online)), ("targets", .array(report.targets)),
        ("last_probe_at", report.lastProbeAt), ("anomaly_count", .integer(report.anomalyCount)),
      ]))
  }

  /// `GET /api/servers/{id}/network-probes/targets`: `[]` for an unknown server.
  func serverProbeTargets(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard try core.server(id: context.parameter(0)) != nil else {
      return Reply.data(JSONValue.array([]))
    }
    return Reply.data(JSONValue.array(try targetRows().map(Self.targetDTO)))
  }

  /// `GET /api/servers/{id}/network-probes/records?from&to[&target_id]`, oldest first (then in
  /// target order): raw samples under a day, hourly aggregates from a day on.
  ///
  /// [inferred] An aggregate row is one hour whose start lies in the window, over all of that
  /// hour's samples so far; its latencies are the mean of the averages, the least minimum and
  /// the greatest maximum (`null` when no sample had any). An unknown server or target gives
  /// `[]`. A window that ends before it starts is under a day: nothing in it.
  func serverProbeRecords(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let from = try context.queryTime("from", required: true) ?? 0
    let to = try context.queryTime("to", required: true) ?? 0
    let targetID = context.query["target_id"]
    guard let row = try core.server(id: context.parameter(0)) else {
      return Reply.data(JSONValue.array([]))
    }
    let history = try history(row)
    let targets = try targetInfos().filter { targetID == nil || $0.id == targetID }
    let fromSeconds = NetworkProbeHistory.ceilDiv(from, SimulatorCore.second)
    let toSeconds = NetworkProbeHistory.floorDiv(to, SimulatorCore.second)
    var records: [(time: Int64, order: Int, value: JSONValue)] = []
    if to - from < 86_400 * SimulatorCore.second {
      for (order, target) in targets.enumerated() {
        for sample in history.samples(target, from: fromSeconds, to: toSeconds) {
          records.append((sample.time, order, record(row.id, target.id, sample)))
        }
      }
    } else {
      let firstHour = NetworkProbeHistory.ceilDiv(fromSeconds, 3600) * 3600
      for (order, target) in targets.enumerated() {
        let samples = history.samples(target, from: firstHour, to: toSeconds / 3600 * 3600 + 3599)
        var index = 0
        while index < samples.count {
          let hour = NetworkProbeHistory.floorDiv(samples[index].time, 3600) * 3600
          var end = index
          while end < samples.count, samples[end].time < hour + 3600 { end += 1 }
          if hour <= toSeconds {
            records.append(
              (hour, order, aggregate(row.id, target.id, hour, samples[index..<end])))
          }
          index = end
        }
      }
    }
    records.sort { ($0.time, $0.order) < ($1.time, $1.order) }
    return Reply.data(JSONValue.array(records.map(\.value)))
  }

  /// `GET /api/servers/{id}/network-probes/anomalies?from&to`: newest first, from at most 500
  /// anomalous raw records. [inferred] An unknown server gives `[]`; records of the same second
  /// come in target order, and a record's latency anomaly before its loss anomaly.
  func serverProbeAnomalies(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let from = try context.queryTime("from", required: true) ?? 0
    let to = try context.queryTime("to", required: true) ?? 0
    guard let row = try core.server(id: context.parameter(0)) else {
      return Reply.data(JSONValue.array([]))
    }
    let found = try anomalies(
      try history(row), try targetInfos(),
      from: NetworkProbeHistory.ceilDiv(from, SimulatorCore.second),
      to: NetworkProbeHistory.floorDiv(to, SimulatorCore.second))
    return Reply.data(
      JSONValue.array(
        found.map { anomaly in
          .object([
            ("timestamp", Self.time(anomaly.time)), ("target_id", .string(anomaly.target.id)),
            ("target_name", .string(anomaly.target.name)),
            ("anomaly_type", .string(anomaly.type)), ("value", .number(anomaly.value)),
          ])
        }))
  }

  /// `GET /api/network-probes/overview`: every server in list order (the facts leave it
  /// open), each with 30-slot sparklines ending at its newest probe.
  ///
  /// [inferred] A slot holds the mean, over every target's samples in it, of the average
  /// latency (samples without one left out) and of the loss; a slot covers
  /// `(end − width, end]`. Without any probe both sparklines are 30 `null`s.
  func probeOverview(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    var entries: [JSONValue] = []
    let targets = try targetInfos()
    for row in try core.allServers() {
      let history = try history(row)
      let report = try report(row, history: history, targets: targets)
      let width = max(history.interval, 60)
      var latency = [JSONValue](repeating: .null, count: 30)
      var loss = [JSONValue](repeating: .null, count: 30)
      if let newest = report.newest {
        let first = newest - 30 * width
        var latencies = [[Double]](repeating: [], count: 30)
        var losses = [[Double]](repeating: [], count: 30)
        for target in targets {
          for sample in history.samples(target, from: first + 1, to: newest) {
            let slot = Int((sample.time - first - 1) / width)
            guard (0..<30).contains(slot) else { continue }
            if let avg = sample.avgLatency { latencies[slot].append(avg) }
            losses[slot].append(sample.packetLoss)
          }
        }
        for slot in 0..<30 {
          if !latencies[slot].isEmpty {
            latency[slot] = .number(NetworkProbeHistory.round(Self.mean(latencies[slot])))
          }
          if !losses[slot].isEmpty { loss[slot] = .number(Self.ratio(Self.mean(losses[slot]))) }
        }
      }
      entries.append(
        .object([
          ("server_id", .string(row.id)), ("server_name", .string(row.name)),
          ("online", .bool(row.online)), ("last_probe_at", report.lastProbeAt),
          ("targets", .array(report.targets)), ("anomaly_count", .integer(report.anomalyCount)),
          ("latency_sparkline", .array(latency)), ("loss_sparkline", .array(loss)),
        ]))
    }
    return Reply.data(JSONValue.array(entries))
  }

  // MARK: Shared

  /// What the summary and the overview share: each target's latest record, the newest probe
  /// and the anomalies of the 24 hours up to the clock.
  private func report(
    _ row: ServerRow, history given: NetworkProbeHistory? = nil,
    targets given2: [ProbeTargetInfo]? = nil
  ) throws -> (targets: [JSONValue], lastProbeAt: JSONValue, newest: Int64?, anomalyCount: Int) {
    let history = try given ?? history(row)
    let targets = try given2 ?? targetInfos()
    var summaries: [JSONValue] = []
    var newest: Int64?
    for target in targets {
      let latest = history.latest(target)
      if let latest { newest = max(newest ?? latest.time, latest.time) }
      summaries.append(
        .object([
          ("target_id", .string(target.id)), ("target_name", .string(target.name)),
          ("provider", .string(target.provider)), ("avg_latency", .number(latest?.avgLatency)),
          ("min_latency", .number(latest?.minLatency)),
          ("max_latency", .number(latest?.maxLatency)),
          ("packet_loss", .number(latest?.packetLoss ?? 0)),
          ("availability", .number(latest.map { Self.ratio(1 - $0.packetLoss) } ?? 0)),
        ]))
    }
    let day = try anomalies(history, targets, from: history.now - 86_400, to: history.now)
    return (summaries, newest.map(Self.time) ?? .null, newest, day.count)
  }

  /// The anomalies of the raw records in `from…to` (seconds), newest first, from at most
  /// ``anomalousRecordLimit`` anomalous records.
  func anomalies(
    _ history: NetworkProbeHistory, _ targets: [ProbeTargetInfo], from: Int64, to: Int64
  ) throws -> [Anomaly] {
    var records: [(sample: ProbeSample, order: Int, target: ProbeTargetInfo)] = []
    for (order, target) in targets.enumerated() {
      for sample in history.samples(target, from: from, to: to)
      where (sample.avgLatency ?? 0) > 500 || sample.packetLoss > 0.1 {
        records.append((sample, order, target))
      }
    }
    records.sort { ($0.sample.time, -$0.order) > ($1.sample.time, -$1.order) }
    var found: [Anomaly] = []
    for (sample, _, target) in records.prefix(Self.anomalousRecordLimit) {
      if let avg = sample.avgLatency, avg > 500 {
        found.append(
          Anomaly(
            time: sample.time, target: target,
            type: avg > 800 ? "very_high_latency" : "high_latency", value: avg))
      }
      if sample.packetLoss >= 1 {
        found.append(Anomaly(time: sample.time, target: target, type: "unreachable", value: 1))
      } else if sample.packetLoss > 0.1 {
        found.append(
          Anomaly(
            time: sample.time, target: target,
            type: sample.packetLoss > 0.5 ? "very_high_packet_loss" : "high_packet_loss",
            value: sample.packetLoss))
      }
    }
    return found
  }

  /// The history of `row` with the stored setting.
  func history(_ row: ServerRow) throws -> NetworkProbeHistory {
    let setting = try settingRow()
    return NetworkProbeHistory(
      serverID: row.id, createdAt: row.createdAt, now: now, interval: setting.interval,
      packetCount: setting.packetCount)
  }

  private func record(_ serverID: String, _ targetID: String, _ sample: ProbeSample) -> JSONValue {
    .object([
      ("server_id", .string(serverID)), ("target_id", .string(targetID)),
      ("timestamp", Self.time(sample.time)), ("avg_latency", .number(sample.avgLatency)),
      ("min_latency", .number(sample.minLatency)), ("max_latency", .number(sample.maxLatency)),
      ("packet_loss", .number(sample.packetLoss)), ("packet_sent", .integer(sample.packetSent)),
      ("packet_received", .integer(sample.packetReceived)),
    ])
  }

  private func aggregate(
    _ serverID: String, _ targetID: String, _ hour: Int64, _ samples: ArraySlice<ProbeSample>
  ) -> JSONValue {
    let averages = samples.compactMap(\.avgLatency)
    return .object([
      ("server_id", .string(serverID)), ("target_id", .string(targetID)),
      ("timestamp", Self.time(hour)),
      (
        "avg_latency",
        .number(averages.isEmpty ? nil : NetworkProbeHistory.round(Self.mean(averages)))
      ),
      ("min_latency", .number(samples.compactMap(\.minLatency).min())),
      ("max_latency", .number(samples.compactMap(\.maxLatency).max())),
      ("packet_loss", .number(Self.ratio(Self.mean(samples.map(\.packetLoss))))),
      ("packet_sent", .integer(samples.count)), ("packet_received", .integer(samples.count)),
    ])
  }

  /// Unix seconds as `+00:00` text.
  static func time(_ seconds: Int64) -> JSONValue {
    .string(RFC3339Timestamp(secondsSince1970: seconds, style: .utcOffset).description)
  }

  static func mean(_ values: [Double]) -> Double {
    values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
  }

  /// A ratio to six decimals, without a sum's rounding noise.
  static func ratio(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
}
