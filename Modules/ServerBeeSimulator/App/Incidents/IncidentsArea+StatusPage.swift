import ServerBeeModels
import ServerBeeTransport

// The status page's settings (Protocol/Incidents.md §4): one row, read by any member, changed by
// an admin.

extension IncidentsArea {
  /// `GET /api/status-page` (member): the row; 404 when it is missing (only if someone deleted
  /// it from the database).
  func statusPage(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    Reply.data(try statusPageRow())
  }

  /// `PUT /api/status-page` (admin): every key optional and stored as given, with no check of
  /// thresholds or layout. `description: null` leaves it unchanged and `""` blanks it
  /// (Protocol/Incidents.md §1.3); `server_ids` (an array) replaces the list;
  /// `group_by_server_group` is not read.
  func updateStatusPage(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    _ = try statusPageRow()
    let body = try context.jsonBody()
    let flag: (String) throws -> SQLValue = { key in
      try body.bool(key).map { $0 ? Int64(1) : 0 }.sql
    }
    let values: [SQLValue] = [
      try body.optionalString("title").sql, try body.optionalString("description").sql,
      try Self.idListText(try body.strings("server_ids")).sql, try flag("enabled"),
      try body.double("uptime_yellow_threshold").sql,
      try body.double("uptime_red_threshold").sql, try flag("show_ip_quality"),
      try body.optionalString("default_layout").sql, try flag("show_server_detail"),
      try flag("show_network"), try flag("show_incidents"), try flag("show_maintenance"),
    ]
    try db.execute(
      """
      UPDATE status_page SET title = COALESCE(?, title),
        description = COALESCE(?, description), server_ids_json = COALESCE(?, server_ids_json),
        enabled = COALESCE(?, enabled),
        uptime_yellow_threshold = COALESCE(?, uptime_yellow_threshold),
        uptime_red_threshold = COALESCE(?, uptime_red_threshold),
        show_ip_quality = COALESCE(?, show_ip_quality),
        default_layout = COALESCE(?, default_layout),
        show_server_detail = COALESCE(?, show_server_detail),
        show_network = COALESCE(?, show_network), show_incidents = COALESCE(?, show_incidents),
        show_maintenance = COALESCE(?, show_maintenance), updated_at = ?
      """, values + [.int(now)])
    return Reply.data(try statusPageRow())
  }

  private func statusPageRow() throws -> StatusPageConfig {
    guard let row = try db.query("SELECT * FROM status_page LIMIT 1").first else {
      throw APIError.notFound("status_page singleton row missing")
    }
    let created = row["created_at"].int ?? 0
    return StatusPageConfig(
      id: row["id"].text ?? "", title: row["title"].text ?? "",
      description: row["description"].text,
      serverIDsJSON: row["server_ids_json"].text ?? "[]",
      groupByServerGroup: row["group_by_server_group"].int == 1,
      enabled: row["enabled"].int == 1,
      uptimeYellowThreshold: row["uptime_yellow_threshold"].real ?? 0,
      uptimeRedThreshold: row["uptime_red_threshold"].real ?? 0,
      showIPQuality: row["show_ip_quality"].int == 1,
      defaultLayout: row["default_layout"].text ?? "",
      showServerDetail: row["show_server_detail"].int == 1,
      showNetwork: row["show_network"].int == 1, showIncidents: row["show_incidents"].int == 1,
      showMaintenance: row["show_maintenance"].int == 1, createdAt: timestamp(created, .zulu),
      updatedAt: timestamp(row["updated_at"].int ?? created, .zulu))
  }
}
