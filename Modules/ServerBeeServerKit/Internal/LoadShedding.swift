/// What one connection is doing, as ``HTTPServer``'s load shedding sees it.
enum ConnectionActivity: Hashable, Sendable {
  /// Receiving a request (the TLS handshake and the first request count from accept): may be
  /// shed once older than the grace period, oldest first.
  case receiving(since: ContinuousClock.Instant)
  /// Kept alive between requests, no byte of the next one yet: shed before any other.
  case idle(since: ContinuousClock.Instant)
  /// A complete request is with the handler, the connection was upgraded, or it is already
  /// closing: never shed.
  case handling
}

/// Which connection a full ``HTTPServer`` closes to make room for a new one: a pure choice,
/// so the order is tested with tables and the accept loop only performs it.
///
/// The rule, with `grace` the shedding grace period:
/// 1. the idle keep-alive connection that has been idle the longest;
/// 2. otherwise the connection that has been receiving its current request the longest, if it
///    has been at it for at least `grace`;
/// 3. otherwise none: the new connection is refused.
///
/// Why this keeps service available: a connection is refused only while every slot either holds
/// a complete request (or a WebSocket), or started its request less than `grace` ago. Slow
/// clients never complete a request, so once they are `grace` old each new connection displaces
/// one of them; and a displaced connection frees its slot at once (the server stops counting it),
/// so the cap still holds. A new client is in turn safe from displacement for `grace`, which is
/// plenty to send a request head, and once its request is complete it cannot be shed at all.
/// Churn is bounded too: a connection that is still receiving can be displaced only after
/// `grace`, so slow clients that reconnect at once cost at most `maximumConnections / grace`
/// accepts a second.
enum LoadShedding {
  /// A connection that might be shed.
  struct Candidate: Hashable, Sendable {
    /// The server's ID of the connection.
    var id: Int
    /// What it is doing.
    var activity: ConnectionActivity
  }

  /// The connection to shed, or `nil` when none may be (see the type's rule).
  /// - Parameters:
  ///   - candidates: The open connections.
  ///   - now: The current instant.
  ///   - grace: How long a connection that is receiving a request is safe from shedding.
  /// - Returns: The ID of the connection to shed, or `nil`.
  static func victim(
    among candidates: [Candidate], now: ContinuousClock.Instant, grace: Duration
  ) -> Int? {
    var oldestIdle: (id: Int, since: ContinuousClock.Instant)?
    var oldestReceiving: (id: Int, since: ContinuousClock.Instant)?
    for candidate in candidates {
      switch candidate.activity {
      case .idle(let since):
        if oldestIdle.map({ since < $0.since }) ?? true { oldestIdle = (candidate.id, since) }
      case .receiving(let since):
        guard now - since >= grace else { continue }
        if oldestReceiving.map({ since < $0.since }) ?? true {
          oldestReceiving = (candidate.id, since)
        }
      case .handling:
        continue
      }
    }
    return oldestIdle?.id ?? oldestReceiving?.id
  }
}
