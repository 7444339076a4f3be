import Foundation
import ServerBeeModels
import ServerBeeTransport

// The control API's push routes: the relay URL, the outbox and the registrations as stored.
//
// What these routes show is what a server operator could see in the database: event ids,
// outcomes and reasons, never a content key or an envelope (only whether one is still kept).

extension PushArea {
  /// `PUT /__simulator/push/relay {"url": string|null}`: sets `[push_relay].url`; the answer says
  /// whether the value is usable (Protocol/Push.md §2.7).
  func controlSetRelay(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let url = try body.optionalString("url")
    core.relayURL.withLock { $0 = url }
    return Reply.json(
      200,
      JSONValue.object([
        (key: "url", value: url.map(JSONValue.string) ?? .null),
        (key: "usable", value: .bool(core.usableRelayURL != nil)),
      ]))
  }

  /// `GET /__simulator/push/outbox[?event_id=]`: every job, oldest first.
  func controlOutbox(_ context: RequestContext) throws -> HTTPResponse {
    var sql = "SELECT * FROM push_outbox"
    var bindings: [SQLValue] = []
    if let eventID = context.query["event_id"] {
      sql += " WHERE event_id = ?"
      bindings.append(.text(eventID))
    }
    let rows = try db.query(sql + " ORDER BY admitted_at, event_id", bindings)
    return core.outboxReport(rows.map(OutboxRow.init))
  }

  /// `GET /__simulator/push/registrations`: each installation's row without the content key.
  func controlRegistrations(_ context: RequestContext) throws -> HTTPResponse {
    let rows = try db.query("SELECT * FROM push_registrations ORDER BY installation_id")
    let items: [JSONValue] = rows.map(PushRegistrationRow.init).map { row in
      .object([
        (key: "installation_id", value: .string(row.installationID)),
        (key: "user_id", value: .string(row.userID)),
        (key: "mobile_session_id", value: .string(row.mobileSessionID)),
        (key: "revision", value: .number(Double(row.revision))),
        (key: "enabled", value: .bool(row.preferences.enabled)),
        (key: "registered", value: .bool(row.isRegistered)),
        (key: "has_device_token", value: .bool(row.deviceToken != nil)),
      ])
    }
    return Reply.json(200, JSONValue.array(items))
  }
}
