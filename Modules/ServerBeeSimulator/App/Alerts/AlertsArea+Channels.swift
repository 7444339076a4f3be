import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// Notification channels (Protocol/Alerts.md §7), admin only: list, change (the resulting
// type and configuration are always validated again, so a stored configuration that no longer
// parses fails even an `enabled`-only toggle) and test-send. The simulator delivers nothing:
// a test is recorded, or fails with the text the control API gave the channel, as a real
// delivery failure would (502 with an unprefixed message).

extension AlertsArea {
  /// The members each channel type's configuration needs [inferred: the simulator checks only
  /// these; a real server deserialises a typed configuration per kind].
  static let channelConfigKeys: [String: [String]] = [
    "webhook": ["url"], "telegram": ["bot_token", "chat_id"], "bark": ["device_key"],
    "email": ["to"], "apns": ["key_id", "team_id", "private_key"],
  ]

  /// `GET /api/notifications`: every channel (the server's order is unspecified; here oldest
  /// first).
  func notificationChannels(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let rows = try db.query("SELECT * FROM notification_channels ORDER BY created_at, rowid")
    return Reply.data(rows.map(Self.channel))
  }

  /// `PUT /api/notifications/{id}` with any of `name`, `notify_type`, `config_json` (an
  /// object) and `enabled`: the row after the change.
  func updateNotificationChannel(_ context: RequestContext, _ caller: Caller?) throws
    -> HTTPResponse
  {
    let id = context.parameter(0)
    let body = try context.jsonBody()
    return try db.transaction {
      guard let row = try channelRow(id) else {
        throw APIError.notFound("Notification \(id) not found")
      }
      let type = try body.optionalString("notify_type") ?? row["notify_type"].text ?? ""
      let config: String
      if let given = body.value["config_json"], given != .null {
        guard case .object = given else {
          throw APIError.validation("Invalid \(type) config: expected a JSON object")
        }
        config = try given.serdeText
      } else {
        config = row["config_json"].text ?? ""
      }
      try Self.validateChannel(type: type, config: config)
      try db.execute(
        """
        UPDATE notification_channels SET name = ?, notify_type = ?, config_json = ?, enabled = ?
        WHERE id = ?
        """,
        [
          .text(try body.optionalString("name") ?? row["name"].text ?? ""), .text(type),
          .text(config), (try body.bool("enabled") ?? row["enabled"].bool).sql, .text(id),
        ])
      guard let updated = try channelRow(id) else {
        throw APIError.notFound("Notification \(id) not found")
      }
      return Reply.data(Self.channel(updated))
    }
  }

  /// `POST /api/notifications/{id}/test`: a synthetic alert through the channel, even a
  /// disabled one; `"ok"`, or the channel's delivery failure as 502.
  func testNotificationChannel(_ context: RequestContext, _ caller: Caller?) throws
    -> HTTPResponse
  {
    let id = context.parameter(0)
    guard let row = try channelRow(id) else {
      throw APIError.notFound("Notification \(id) not found")
    }
    let type = row["notify_type"].text ?? ""
    try Self.validateChannel(type: type, config: row["config_json"].text ?? "")
    if type == "email" {
      // The simulator has no Resend key [inferred text].
      throw APIError.validation("Resend API key is not configured")
    }
    if let failure = row["test_failure"].text {
      return Reply.error(502, .badGateway, failure)
    }
    try db.execute(
      "INSERT INTO notification_channel_tests (channel_id, sent_at) VALUES (?, ?)",
      [.text(id), .int(now)])
    return Reply.data("ok")
  }

  /// `POST /__simulator/notification-channels`: `id`?, `name`? ("Ops webhook"), `notify_type`?
  /// (`webhook`), `config_json`? (raw text, stored as given, so a broken one can be made;
  /// `{"url":"https://hooks.example.com/x"}`), `enabled`? (true), `test_failure`? (the text a
  /// test answers with, as 502) → the row with `tests`.
  func controlCreateChannel(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let id = try body.optionalString("id") ?? Crypto.uuid(random)
    return try db.transaction {
      guard try channelRow(id) == nil else { throw APIError.conflict("Notification exists") }
      try db.execute(
        "INSERT INTO notification_channels VALUES (?, ?, ?, ?, ?, ?, ?)",
        [
          .text(id), .text(try body.optionalString("name") ?? "Ops webhook"),
          .text(try body.optionalString("notify_type") ?? "webhook"),
          .text(
            try body.optionalString("config_json") ?? #"{"url":"https://hooks.example.com/x"}"#),
          (try body.bool("enabled") ?? true).sql, .int(now),
          (try body.optionalString("test_failure")).sql,
        ])
      return try controlChannelReport(id)
    }
  }

  /// `GET /__simulator/notification-channels/{id}`: the row, its configuration and how many
  /// tests were sent through it.
  func controlChannel(_ context: RequestContext) throws -> HTTPResponse {
    try controlChannelReport(context.parameter(0))
  }

  private func controlChannelReport(_ id: String) throws -> HTTPResponse {
    guard let row = try channelRow(id) else { throw APIError.notFound("Notification not found") }
    let tests =
      try db.scalar(
        "SELECT COUNT(*) FROM notification_channel_tests WHERE channel_id = ?", [.text(id)]
      ).int ?? 0
    return Reply.object([
      ("id", .string(id)), ("notify_type", .string(row["notify_type"].text ?? "")),
      ("config_json", .string(row["config_json"].text ?? "")),
      ("enabled", .bool(row["enabled"].bool)), ("tests", .number(Double(tests))),
    ])
  }

  private func channelRow(_ id: String) throws -> Row? {
    try db.query("SELECT * FROM notification_channels WHERE id = ?", [.text(id)]).first
  }

  /// The type must be known and its configuration an object with the type's members.
  /// - Throws: 422 `Validation error: Invalid <type> config: …`.
  static func validateChannel(type: String, config: String) throws {
    guard let required = channelConfigKeys[type] else {
      throw APIError.validation("Unknown notification type: \(type)")
    }
    guard let value = try? WireJSON.decode(JSONValue.self, from: Data(config.utf8)),
      case .object = value
    else { throw APIError.validation("Invalid \(type) config: not a JSON object") }
    for key in required {
      guard case .string(let text)? = value[key], !text.isEmpty else {
        throw APIError.validation("Invalid \(type) config: missing field `\(key)`")
      }
    }
  }

  static func channel(_ row: Row) -> NotificationChannel {
    NotificationChannel(
      id: row["id"].text ?? "", name: row["name"].text ?? "",
      notifyType: NotificationChannelType(rawValue: row["notify_type"].text ?? ""),
      configJSON: row["config_json"].text ?? "", enabled: row["enabled"].bool,
      createdAt: timestamp(row["created_at"].int ?? 0, .zulu))
  }
}
