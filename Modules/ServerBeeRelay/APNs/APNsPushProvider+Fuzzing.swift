import ServerBeeHTTP2

extension APNsPushProvider {
  /// One response field in a ``ReplayedAnswer``.
  @_spi(Fuzzing) public struct ReplayedField: Hashable, Sendable {
    /// The name as decoded.
    public var name: String
    /// The value as decoded.
    public var value: String
  }

  /// What one request got in ``replayAnswers(eventIDs:serverBytes:readSizes:)``.
  @_spi(Fuzzing) public struct ReplayedAnswer: Hashable, Sendable {
    /// The final status, or nil when no response came.
    public var status: Int?
    /// The response's fields (name, value), trailers included.
    public var fields: [ReplayedField]
    /// The response body.
    public var body: [UInt8]
    /// Why no response came (`HTTP2Error`'s text), or nil.
    public var failure: String?
    /// Whether that failure leaves the send safe to repeat (the server cannot have acted).
    public var failureIsSafeToRetry: Bool
    /// The provider's answer: the response classified, or the failure's answer (nil: the
    /// provider would send again).
    public var answer: ProviderAnswer?
  }

  /// The APNs answer path alone, on bytes a server sent (Protocol/Relay.md §5): one APNs
  /// request per event id goes out on the client's HTTP/2 connection right after the preface,
  /// then `serverBytes` arrive in reads of `readSizes` (HTTP/2 framing, HPACK, flow control),
  /// then the server closes; each response is classified as ``deliver(_:)`` does. No socket,
  /// thread or clock. For the fuzz target `fuzz-apns-answer`.
  ///
  /// ```swift
  /// let answers = APNsPushProvider.replayAnswers(
  ///   eventIDs: [eventID], serverBytes: settings + headers, readSizes: [7, 100])
  /// ```
  /// - Parameters:
  ///   - eventIDs: The `apns-id` of each request (a lowercase UUID in real sends).
  ///   - serverBytes: What the server sends, its preface (SETTINGS) first.
  ///   - readSizes: The sizes of the reads the bytes arrive in (cycled; one read when empty).
  /// - Returns: One answer per event id, in order.
  @_spi(Fuzzing) public static func replayAnswers(
    eventIDs: [String], serverBytes: [UInt8], readSizes: [Int]
  ) -> [ReplayedAnswer] {
    let requests = eventIDs.map { id in
      HTTP2Request(
        method: "POST", path: "/3/device/" + String(repeating: "ab", count: 32),
        headers: [
          HPACKField("authorization", "bearer a.b.c"), HPACKField("apns-topic", "app.serverbee"),
          HPACKField("apns-push-type", "alert"), HPACKField("apns-priority", "10"),
          HPACKField("apns-expiration", "1800000600", indexing: .none),
          HPACKField("apns-id", id, indexing: .none),
        ], body: Array(#"{"aps":{}}"#.utf8))
    }
    let results = HTTP2ClientConnection.replay(
      requests: requests, serverBytes: serverBytes, readSizes: readSizes)
    return zip(eventIDs, results).map { id, result in
      switch result {
      case .success(let response):
        return ReplayedAnswer(
          status: response.status,
          fields: response.headers.map { ReplayedField(name: $0.name, value: $0.value) },
          body: response.body, failure: nil, failureIsSafeToRetry: false,
          answer: answer(for: response, eventID: id))
      case .failure(let error):
        return ReplayedAnswer(
          status: nil, fields: [], body: [], failure: error.description,
          failureIsSafeToRetry: error.isSafeToRetry, answer: answer(for: error))
      }
    }
  }
}
