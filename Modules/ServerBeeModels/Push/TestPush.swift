/// The body of `POST /api/mobile/push/test` (Protocol/Push.md §2.6): asks the server to send a test
/// push.
///
/// Use a new lowercase UUID per logical test and reuse it when retrying a lost reply.
///
/// ```swift
/// let body = try WireJSON.encode(
///   TestPushRequest(eventID: UUID().uuidString.lowercased(), expectedRevision: 2))
/// ```
public struct TestPushRequest: Codable, Hashable, Sendable {
  /// The client-chosen test id (a UUID).
  public var eventID: String
  /// The registration revision the client last confirmed.
  public var expectedRevision: Int64

  /// Creates a test request.
  /// - Parameters:
  ///   - eventID: The test id.
  ///   - expectedRevision: The confirmed revision.
  public init(eventID: String, expectedRevision: Int64) {
    self.eventID = eventID
    self.expectedRevision = expectedRevision
  }

  enum CodingKeys: String, CodingKey {
    case eventID = "event_id"
    case expectedRevision = "expected_revision"
  }
}

/// The status of a test push (Protocol/Push.md §2.6), from `POST /api/mobile/push/test` and
/// `GET /api/mobile/push/test/{event_id}`.
///
/// ```swift
/// let status = try APIResponse<TestPushResponse>.payload(status: status, body: body)
/// if status.outcome.isInProgress { … poll again … }
/// ```
public struct TestPushResponse: Codable, Hashable, Sendable {
  /// The test id, lowercase hyphenated.
  public var eventID: String
  /// Where the delivery stands.
  public var outcome: PushOutcome
  /// Display-only detail, for example `Queued`.
  public var reason: PushDeliveryReason
  /// Always `unobserved`: the server never learns whether the device showed it.
  public var presentation: String

  /// Creates a test status.
  /// - Parameters:
  ///   - eventID: The test id.
  ///   - outcome: The outcome.
  ///   - reason: The reason.
  ///   - presentation: The presentation state, `unobserved`.
  public init(
    eventID: String, outcome: PushOutcome, reason: PushDeliveryReason,
    presentation: String = "unobserved"
  ) {
    self.eventID = eventID
    self.outcome = outcome
    self.reason = reason
    self.presentation = presentation
  }

  enum CodingKeys: String, CodingKey {
    case eventID = "event_id"
    case outcome, reason, presentation
  }
}
