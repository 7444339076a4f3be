import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// Network probe targets and settings (Protocol/AppRoutes.md §6): any member reads them, admins
// change them (the router has checked the role). Targets come in two shapes: the lists' DTO and
// the stored row that create and update answer (Protocol/AppRoutes.md §2.6).

extension NetworkProbesArea {
  /// `GET /api/network-probes/targets`: presets first (in their seeded order [inferred]), then
  /// custom targets by name.
  func probeTargets(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    Reply.data(JSONValue.array(try targetRows().map(Self.targetDTO)))
  }

  /// `POST /api/network-probes/targets`: all five keys required; the probe type, then the SSRF
  /// guard, are checked (as for ping tasks).
  func createProbeTarget(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let name = try body.string("name")
    let provider = try body.string("provider")
    let location = try body.string("location")
    let target = try body.string("target")
    let probeType = try body.string("probe_type")
    try TasksArea.checkPingTask(probeType: probeType, target: target)
    let id = Crypto.uuid(random)
    return try db.transaction {
      try db.execute(
        "INSERT INTO network_probe_targets VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?)",
        [
          .text(id), .text(name), .text(provider), .text(location), .text(target),
          .text(probeType), .int(now), .int(now),
        ])
      return Reply.data(Self.storedRow(try targetRow(id)))
    }
  }

  /// `PUT /api/network-probes/targets/{id}`: the keys given change. [inferred] The body is read
  /// first (a framework rejection comes before anything), then the target is looked up (404,
  /// then 403 for a preset), then the resulting probe type and target are checked.
  func updateProbeTarget(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    let body = try context.jsonBody()
    let name = try body.optionalString("name")
    let provider = try body.optionalString("provider")
    let location = try body.optionalString("location")
    let target = try body.optionalString("target")
    let probeType = try body.optionalString("probe_type")
    return try db.transaction {
      let row = try targetRow(id)
      guard row["source"].text == nil else {
        throw APIError.forbidden("Cannot modify a preset probe target")
      }
      let newType = probeType ?? row["probe_type"].text ?? ""
      let newTarget = target ?? row["target"].text ?? ""
      try TasksArea.checkPingTask(probeType: newType, target: newTarget)
      try db.execute(
        """
        UPDATE network_probe_targets SET name = ?, provider = ?, location = ?, target = ?,
          probe_type = ?, updated_at = ? WHERE id = ?
        """,
        [
          .text(name ?? row["name"].text ?? ""), .text(provider ?? row["provider"].text ?? ""),
          .text(location ?? row["location"].text ?? ""), .text(newTarget), .text(newType),
          .int(now), .text(id),
        ])
      return Reply.data(Self.storedRow(try targetRow(id)))
    }
  }

  /// `DELETE /api/network-probes/targets/{id}` → `"ok"`: 404 unknown, 403 preset. The target
  /// leaves `default_target_ids`; its records, being generated, go with it.
  func deleteProbeTarget(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let id = context.parameter(0)
    return try db.transaction {
      let row = try targetRow(id)
      guard row["source"].text == nil else {
        throw APIError.forbidden("Cannot delete a preset probe target")
      }
      try db.execute("DELETE FROM network_probe_targets WHERE id = ?", [.text(id)])
      let setting = try settingRow()
      let remaining = setting.defaults.filter { $0 != id }
      if remaining != setting.defaults {
        try db.execute(
          "UPDATE network_probe_setting SET default_target_ids_json = ? WHERE id = 1",
          [.text(try Self.jsonText(remaining))])
      }
      return Reply.data("ok")
    }
  }

  /// `GET /api/network-probes/setting`.
  func probeSetting(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    Reply.data(Self.settingValue(try settingRow()))
  }

  /// `PUT /api/network-probes/setting`: every key required; interval 30–600 and packet count
  /// 5–20 else 400, then every default id must be a target (422, the first unknown one). The
  /// answer echoes the body.
  func updateProbeSetting(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let interval = try body.requiredInt("interval")
    let packetCount = try body.requiredInt("packet_count")
    let defaults = try body.requiredStrings("default_target_ids")
    guard (30...600).contains(interval) else {
      throw APIError.badRequest("interval must be between 30 and 600 seconds")
    }
    guard (5...20).contains(packetCount) else {
      throw APIError.badRequest("packet_count must be between 5 and 20")
    }
    return try db.transaction {
      let known = Set(try targetRows().compactMap { $0["id"].text })
      if let unknown = defaults.first(where: { !known.contains($0) }) {
        throw APIError.validation("Invalid target ID in default_target_ids: \(unknown)")
      }
      try db.execute(
        """
        UPDATE network_probe_setting SET interval = ?, packet_count = ?,
          default_target_ids_json = ? WHERE id = 1
        """, [.int(interval), .int(packetCount), .text(try Self.jsonText(defaults))])
      return Reply.data(
        Self.settingValue((interval, Int(packetCount), defaults)))
    }
  }

  // MARK: Rows

  /// Every target: presets in seeded order, then custom targets by name.
  func targetRows() throws -> [Row] {
    try db.query(
      """
      SELECT * FROM network_probe_targets
      ORDER BY source IS NULL, CASE WHEN source IS NULL THEN name END, rowid
      """)
  }

  /// Every target as the history needs it, in list order.
  func targetInfos() throws -> [ProbeTargetInfo] {
    try targetRows().map { row in
      ProbeTargetInfo(
        id: row["id"].text ?? "", name: row["name"].text ?? "",
        provider: row["provider"].text ?? "",
        createdAt: row["source"].text == nil ? row["created_at"].int : nil)
    }
  }

  /// The stored setting.
  func settingRow() throws -> (interval: Int64, packetCount: Int, defaults: [String]) {
    guard let row = try db.query("SELECT * FROM network_probe_setting WHERE id = 1").first else {
      return (60, 10, [])
    }
    let defaults =
      (try? WireJSON.decode(
        [String].self, from: Data((row["default_target_ids_json"].text ?? "[]").utf8))) ?? []
    return (row["interval"].int ?? 60, Int(row["packet_count"].int ?? 10), defaults)
  }

  private func targetRow(_ id: String) throws -> Row {
    guard
      let row = try db.query("SELECT * FROM network_probe_targets WHERE id = ?", [.text(id)])
        .first
    else { throw APIError.notFound("Probe target \(id) not found") }
    return row
  }

  /// The lists' shape: `source`, `source_name`, `+00:00` or null times.
  static func targetDTO(_ row: Row) -> JSONValue {
    .object(
      common(row) + [
        ("source", .text(row["source"].text)), ("source_name", .text(row["source_name"].text)),
        ("created_at", stamp(row["created_at"].int, .utcOffset)),
        ("updated_at", stamp(row["updated_at"].int, .utcOffset)),
      ])
  }

  /// The stored row that create and update answer: no `source`, `Z` times.
  static func storedRow(_ row: Row) -> JSONValue {
    .object(
      common(row) + [
        ("created_at", stamp(row["created_at"].int, .zulu)),
        ("updated_at", stamp(row["updated_at"].int, .zulu)),
      ])
  }

  private static func common(_ row: Row) -> [(key: String, value: JSONValue)] {
    [
      ("id", .text(row["id"].text)), ("name", .text(row["name"].text)),
      ("provider", .text(row["provider"].text)), ("location", .text(row["location"].text)),
      ("target", .text(row["target"].text)), ("probe_type", .text(row["probe_type"].text)),
    ]
  }

  private static func stamp(_ nanos: Int64?, _ style: RFC3339Timestamp.Style) -> JSONValue {
    .text(timestamp(nanos, style)?.description)
  }

  private static func settingValue(
    _ setting: (interval: Int64, packetCount: Int, defaults: [String])
  ) -> JSONValue {
    .object([
      ("interval", .integer(setting.interval)), ("packet_count", .integer(setting.packetCount)),
      ("default_target_ids", .array(setting.defaults.map { .string($0) })),
    ])
  }

  private static func jsonText(_ ids: [String]) throws -> String {
    String(decoding: try WireJSON.encode(ids), as: UTF8.self)
  }
}
