import Foundation
import ServerBeeModels
import ServerBeeTransport

/// `POST /__simulator/push/outbox/run`, the control route answered outside the route tables: it
/// waits for the relay, so never under the database lock (``respond(_:remoteAddress:)`` and
/// ``Simulator/handle(_:remoteAddress:)`` call it first).
extension SimulatorCore {
  /// For `POST /__simulator/push/outbox/run`: a function that answers it around a pass of the
  /// outbox (a bad control token is a bare 401); `nil` for every other request.
  func outboxRunRequest(_ context: RequestContext) -> (
    (() throws -> [OutboxRow]) -> HTTPResponse
  )? {
    guard context.segments == ["__simulator", "push", "outbox", "run"] else { return nil }
    return { [self] pass in
      guard context.method == "POST" else { return APIError.bare(405).response }
      guard context.request.headers["x-simulator-token"] == controlToken else {
        return APIError.bare(401).response
      }
      do {
        return outboxReport(try pass())
      } catch {
        return Reply.error(500, .internalError, "Internal error: Database error")
      }
    }
  }

  /// The JSON list the outbox control routes answer with.
  func outboxReport(_ rows: [OutboxRow]) -> HTTPResponse {
    let items: [JSONValue] = rows.map { row in
      .object([
        (key: "event_id", value: .string(row.eventID)),
        (key: "installation_id", value: .string(row.installationID)),
        (key: "kind", value: .string(row.kind)),
        (key: "category", value: .string(row.category.rawValue)),
        (key: "user_id", value: .string(row.userID)),
        (key: "outcome", value: .string(row.outcome)),
        (key: "reason", value: .string(row.reason)),
        (key: "attempts", value: .number(Double(row.attempts))),
        (key: "created_at", value: .number(Double(row.createdAt))),
        (key: "expires_at", value: .number(Double(row.expiresAt))),
        (
          key: "next_attempt_at",
          value: .string(timestamp(row.nextAttemptAt, .zulu).formatted(.zulu))
        ),
        (key: "has_ciphertext", value: .bool(row.envelopeJSON != nil)),
      ])
    }
    return Reply.json(200, JSONValue.array(items))
  }
}
