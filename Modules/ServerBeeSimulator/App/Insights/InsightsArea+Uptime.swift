import ServerBeeModels
import ServerBeeTransport

// Daily uptime (Protocol/AppRoutes.md §5).

extension InsightsArea {
  /// `GET /api/servers/{id}/uptime-daily?days=N`: exactly N days (default 90, 1–365), oldest
  /// first, ending today; days without data are zeros. The `days` check comes before the
  /// server's lookup [inferred: the handler validates its query first].
  func serverUptimeDaily(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    // A negative number reaches the handler's check [inferred: `days` is a signed integer].
    let days =
      try context.query["days"].flatMap { Int64($0) } ?? context.queryCount("days", default: 90)
    guard (1...365).contains(days) else {
      throw APIError.badRequest("days must be between 1 and 365")
    }
    let history = history(try pathServer(context))
    let entries: [JSONValue] = (0..<Int(days)).reversed().map { back in
      let day = history.uptime(history.today.adding(days: -back))
      return .object([
        ("date", .date(day.date)), ("total_minutes", .integer(day.totalMinutes)),
        ("online_minutes", .integer(day.onlineMinutes)),
        ("downtime_incidents", .integer(day.downtimeIncidents)),
      ])
    }
    return Reply.data(JSONValue.array(entries))
  }
}
