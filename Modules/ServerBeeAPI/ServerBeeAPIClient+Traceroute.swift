public import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

extension ServerBeeError.Code where Domain == ServerBeeAPIDomain {
  /// The server's agent is not connected, so it cannot run the job (the documented 404
  /// `Server <id> is not online`, Protocol/AppRoutes.md §7.1).
  public static let agentOffline = Self("agent_offline")
  /// A job on the agent did not finish within the polls allowed (``TracerouteRun``).
  public static let timedOut = Self("timed_out")
}

extension ServerBeeAPIClient {
  /// `GET /api/servers/{id}/traceroute`: a server's traceroutes, newest first
  /// (Protocol/AppRoutes.md §7.3). Any member.
  ///
  /// ```swift
  /// for run in try await api.tracerouteHistory(serverID: server.id, limit: 20) {
  ///   print(run.target, run.hopCount)
  /// }
  /// ```
  /// - Parameters:
  ///   - serverID: The server.
  ///   - limit: At most this many (the server's default is 50); the app asks for 20.
  ///   - offset: How many of the newest to skip.
  /// - Returns: The runs.
  /// - Throws: ``ServerBeeAPIError`` (`.invalidArgument` for an empty id or a negative number,
  ///   checked before sending), or `CancellationError`.
  public func tracerouteHistory(serverID: String, limit: Int? = nil, offset: Int? = nil)
    async throws -> [TracerouteSummary]
  {
    try Self.requireNonEmpty(serverID, "the server id")
    guard (limit ?? 0) >= 0, (offset ?? 0) >= 0 else {
      throw ServerBeeAPIError(.invalidArgument, "limit and offset must not be negative")
    }
    return try await send(
      RouteCatalogue.Traceroute.tracerouteHistory, PathID(serverID),
      query: [("limit", limit.map(String.init)), ("offset", offset.map(String.init))])
  }

  /// `POST /api/servers/{id}/traceroute`: asks the server's agent to trace `request.target`
  /// (Protocol/AppRoutes.md §7.1). **Admin only** (the app assumes any member may;
  /// Protocol/AppRoutes.md §2.2). Follow it with ``traceroute(serverID:requestID:)``, or use
  /// ``runTraceroute(serverID:_:pollInterval:maxPolls:)`` for both.
  ///
  /// ```swift
  /// let started = try await api.startTraceroute(
  ///   serverID: server.id, TracerouteRequest(target: "1.1.1.1"))
  /// ```
  /// - Parameters:
  ///   - serverID: The server whose agent traces.
  ///   - request: The target and protocol.
  /// - Returns: The run's id.
  /// - Throws: ``ServerBeeAPIError``: `.invalidArgument` for an empty id or target (checked
  ///   before sending), `.validation` for a target with other characters than letters, digits,
  ///   `.`, `-` and `:`, `.agentOffline` when the agent is not connected, `.forbidden` for a
  ///   member. Or `CancellationError`.
  public func startTraceroute(serverID: String, _ request: TracerouteRequest) async throws
    -> TracerouteStarted
  {
    try Self.requireNonEmpty(serverID, "the server id")
    try Self.requireNonEmpty(request.target, "the traceroute target")
    do {
      return try await send(
        RouteCatalogue.Traceroute.startTraceroute, PathID(serverID), body: request)
    } catch let error as ServerBeeAPIError {
      throw Self.agentOffline(error)
    }
  }

  /// `GET /api/servers/{id}/traceroute/{request_id}`: one run as far as it got
  /// (Protocol/AppRoutes.md §7.2). Any member.
  ///
  /// ```swift
  /// let snapshot = try await api.traceroute(serverID: server.id, requestID: started.requestID)
  /// print(snapshot.hops.count, snapshot.completed)
  /// ```
  /// - Parameters:
  ///   - serverID: The server.
  ///   - requestID: The run.
  /// - Returns: The snapshot.
  /// - Throws: ``ServerBeeAPIError`` (`.notFound` for an unknown run, which a run may briefly
  ///   be right after it started), or `CancellationError`.
  public func traceroute(serverID: String, requestID: String) async throws -> TracerouteSnapshot {
    try Self.requireNonEmpty(serverID, "the server id")
    try Self.requireNonEmpty(requestID, "the traceroute id")
    return try await send(
      RouteCatalogue.Traceroute.traceroute, PathIDPair(serverID, requestID))
  }

  /// `DELETE /api/servers/{id}/traceroute/{request_id}`: removes one run
  /// (Protocol/AppRoutes.md §7.4). **Admin only**.
  ///
  /// ```swift
  /// try await api.deleteTraceroute(serverID: server.id, requestID: run.requestID)
  /// ```
  /// - Parameters:
  ///   - serverID: The server.
  ///   - requestID: The run.
  /// - Throws: ``ServerBeeAPIError`` (`.notFound`, `.forbidden`), or `CancellationError`.
  public func deleteTraceroute(serverID: String, requestID: String) async throws {
    try Self.requireNonEmpty(serverID, "the server id")
    try Self.requireNonEmpty(requestID, "the traceroute id")
    _ = try await send(
      RouteCatalogue.Traceroute.deleteTraceroute, PathIDPair(serverID, requestID))
  }

  /// `DELETE /api/servers/{id}/traceroute`: removes a server's whole history
  /// (Protocol/AppRoutes.md §7.4). **Admin only**.
  ///
  /// ```swift
  /// let removed = try await api.clearTraceroutes(serverID: server.id)
  /// ```
  /// - Parameter serverID: The server.
  /// - Returns: How many runs were removed.
  /// - Throws: ``ServerBeeAPIError`` (`.forbidden` for a member), or `CancellationError`.
  public func clearTraceroutes(serverID: String) async throws -> Int {
    try Self.requireNonEmpty(serverID, "the server id")
    return try await send(RouteCatalogue.Traceroute.clearTraceroutes, PathID(serverID)).deleted
  }

  /// Starts a traceroute and follows it: the snapshots as they are polled, hops arriving, until
  /// the run completes or fails (Protocol/AppRoutes.md §7.2). Polls as the app does, 2 s apart
  /// and at most 30 times by default; see ``TracerouteRun``.
  ///
  /// ```swift
  /// var shown = 0
  /// for try await snapshot in api.runTraceroute(
  ///   serverID: server.id, TracerouteRequest(target: "example.com", protocol: .tcp))
  /// {
  ///   for hop in snapshot.hops.dropFirst(shown) { print(hop.hop, hop.ips?.first ?? "*") }
  ///   shown = snapshot.hops.count
  /// }
  /// ```
  /// - Parameters:
  ///   - serverID: The server whose agent traces.
  ///   - request: The target and protocol.
  ///   - pollInterval: The wait before each poll.
  ///   - maxPolls: The most polls before the run ends with `.timedOut`.
  /// - Returns: The run, started when first iterated.
  public func runTraceroute(
    serverID: String, _ request: TracerouteRequest, pollInterval: Duration = .seconds(2),
    maxPolls: Int = 30
  ) -> TracerouteRun {
    TracerouteRun(
      client: self, serverID: serverID, start: .request(request), pollInterval: pollInterval,
      maxPolls: maxPolls)
  }

  /// Follows a run that was already started (``startTraceroute(serverID:_:)``), as
  /// ``runTraceroute(serverID:_:pollInterval:maxPolls:)`` does.
  ///
  /// ```swift
  /// for try await snapshot in api.followTraceroute(serverID: id, requestID: rid) {
  ///   print(snapshot.hops.count)
  /// }
  /// ```
  /// - Parameters:
  ///   - serverID: The server.
  ///   - requestID: The run.
  ///   - pollInterval: The wait before each poll.
  ///   - maxPolls: The most polls before the run ends with `.timedOut`.
  /// - Returns: The run's snapshots.
  public func followTraceroute(
    serverID: String, requestID: String, pollInterval: Duration = .seconds(2), maxPolls: Int = 30
  ) -> TracerouteRun {
    TracerouteRun(
      client: self, serverID: serverID, start: .existing(requestID), pollInterval: pollInterval,
      maxPolls: maxPolls)
  }

  /// `error` as `.agentOffline` when it is the documented 404 for an agent that is not
  /// connected (`Server <id> is not online`); otherwise `error` unchanged.
  static func agentOffline(_ error: ServerBeeAPIError) -> ServerBeeAPIError {
    guard error.code == .notFound, let message = error.apiFailure?.message,
      message.hasSuffix("is not online")
    else { return error }
    var offline = error
    offline.code = .agentOffline
    return offline
  }
}

/// A traceroute followed to its end: it starts the run (unless given one) on the first
/// `next()`, then polls `GET /api/servers/{id}/traceroute/{request_id}` after each
/// ``pollInterval`` and yields every snapshot, so hops show as they arrive. The last element is
/// the finished snapshot (`completed`, or `error` set); after it the sequence ends.
///
/// A 404 for the run is tolerated until a snapshot has been read, since a run may briefly be
/// unknown right after it starts (Protocol/AppRoutes.md §7.2). When ``maxPolls`` polls pass
/// without the run finishing, the iteration throws ``ServerBeeAPIError`` `.timedOut`. Cancel the
/// task to stop waiting: the sleep throws `CancellationError`.
///
/// ```swift
/// do {
///   for try await snapshot in api.runTraceroute(serverID: id, TracerouteRequest(target: "1.1.1.1")) {
///     print(snapshot.hops.count, "hops")
///   }
/// } catch let error as ServerBeeAPIError where error.code == .agentOffline {
///   print("the agent is offline")
/// }
/// ```
public struct TracerouteRun: AsyncSequence, Sendable {
  /// One poll's snapshot.
  public typealias Element = TracerouteSnapshot

  /// What the run starts from.
  enum Start: Sendable {
    case request(TracerouteRequest)
    case existing(String)
  }

  let client: ServerBeeAPIClient
  let serverID: String
  let start: Start
  /// The wait before each poll.
  public let pollInterval: Duration
  /// The most polls.
  public let maxPolls: Int
  /// How the run waits; `Task.sleep` unless a test replaces it.
  var pause: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

  /// Waits with `pause` instead of sleeping (for a test that moves a simulated clock).
  /// - Parameter pause: Called with ``pollInterval`` before each poll.
  /// - Returns: The same run, waiting with `pause`.
  public func waiting(with pause: @escaping @Sendable (Duration) async throws -> Void) -> Self {
    var copy = self
    copy.pause = pause
    return copy
  }

  /// Makes an iterator; each one starts the run anew.
  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(run: self) }

  /// Starts, then polls.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let run: TracerouteRun
    var requestID: String?
    var polls = 0
    var seen = false
    var isFinished = false

    init(run: TracerouteRun) {
      self.run = run
      if case .existing(let id) = run.start { requestID = id }
    }

    /// The next snapshot.
    /// - Returns: The snapshot, or `nil` after the finished one.
    /// - Throws: ``ServerBeeAPIError`` (`.timedOut` after ``TracerouteRun/maxPolls`` polls,
    ///   `.agentOffline`, `.forbidden`, `.notFound`), or `CancellationError`.
    public mutating func next() async throws -> TracerouteSnapshot? {
      guard !isFinished else { return nil }
      isFinished = true
      let client = run.client
      let id: String
      if let requestID {
        id = requestID
      } else if case .request(let request) = run.start {
        id = try await client.startTraceroute(serverID: run.serverID, request).requestID
        requestID = id
      } else {
        return nil
      }
      while polls < run.maxPolls {
        polls += 1
        try await run.pause(run.pollInterval)
        let snapshot: TracerouteSnapshot
        do {
          snapshot = try await client.traceroute(serverID: run.serverID, requestID: id)
        } catch let error as ServerBeeAPIError where error.code == .notFound && !seen {
          continue
        }
        seen = true
        isFinished = snapshot.isFinished
        return snapshot
      }
      throw ServerBeeAPIError(
        .timedOut,
        "traceroute \(id) did not finish after \(run.maxPolls) polls \(run.pollInterval) apart")
    }
  }
}
