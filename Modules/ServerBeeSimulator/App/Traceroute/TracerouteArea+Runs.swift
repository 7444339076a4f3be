import ServerBeeModels
import ServerBeeTransport

// The five traceroute routes (Protocol/AppRoutes.md §7). A run's progress is read from its row
// and the clock: hops appear every TraceroutePlan.hopInterval.
//
// [inferred], as Protocol/AppRoutes.md §7 records:
// - the body is checked before the agent (an invalid target on an offline server is the 422);
// - an unknown server is "not online" like an offline one;
// - the simulator has no live cache: `completed_at` is the time the run finished, on every read;
// - a run whose agent goes offline before it finishes fails with `agent disconnected`, and keeps
//   the hops it had;
// - `round` and `total_rounds` are 1.

extension TracerouteArea {
  /// The protocols the body may name, in the server's order.
  static let protocols = ["icmp", "udp", "tcp"]

  /// `POST /api/servers/{id}/traceroute {target, protocol?}` (admin) → `{request_id}`.
  func startTraceroute(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let body = try context.jsonBody()
    let target = try body.string("target")
    let kind = try body.optionalString("protocol") ?? "icmp"
    guard Self.protocols.contains(kind) else {
      throw APIError.plain(
        422,
        "Failed to deserialize the JSON body into the target type: protocol: unknown variant "
          + "`\(kind)`, expected one of "
          + Self.protocols.map { "`\($0)`" }.joined(separator: ", "))
    }
    guard !target.isEmpty,
      target.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:".contains($0)) })
    else {
      throw APIError.validation(
        "Invalid target: only alphanumeric characters, dots, hyphens, and colons are allowed")
    }
    let serverID = context.parameter(0)
    guard try core.server(id: serverID)?.online == true else {
      throw APIError.notFound("Server \(serverID) is not online")
    }
    let requestID = Crypto.uuid(random)
    try db.execute(
      """
      INSERT INTO traceroutes (request_id, server_id, target, protocol, started_at)
      VALUES (?, ?, ?, ?, ?)
      """, [.text(requestID), .text(serverID), .text(target), .text(kind), .int(now)])
    return Reply.data(JSONValue.object([("request_id", .string(requestID))]))
  }

  /// `GET /api/servers/{id}/traceroute/{request_id}` (member): the run as far as it got.
  func traceroute(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let serverID = context.parameter(0)
    let requestID = context.parameter(1)
    guard
      let row = try db.query(
        "SELECT * FROM traceroutes WHERE request_id = ? AND server_id = ?",
        [.text(requestID), .text(serverID)]
      ).first
    else { throw APIError.notFound("Traceroute \(requestID) not found") }
    return Reply.data(try snapshot(row))
  }

  /// `GET /api/servers/{id}/traceroute?limit&offset` (member): summaries, newest first.
  func tracerouteHistory(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let limit = try context.queryCount("limit", default: 50)
    let offset = try context.queryCount("offset", default: 0)
    let rows = try db.query(
      """
      SELECT * FROM traceroutes WHERE server_id = ?
      ORDER BY started_at DESC, rowid DESC LIMIT ? OFFSET ?
      """, [.text(context.parameter(0)), .int(limit), .int(offset)])
    let summaries: [JSONValue] = try rows.map { row in
      let progress = try progress(row)
      return .object([
        ("request_id", .text(row["request_id"].text)), ("target", .text(row["target"].text)),
        ("protocol", .text(row["protocol"].text)),
        ("started_at", .integer(progress.startedAt)),
        ("completed_at", .integer(progress.completedAt)),
        ("hop_count", .integer(progress.hops)),
        ("has_error", .bool(progress.error != nil)),
      ])
    }
    return Reply.data(JSONValue.array(summaries))
  }

  /// `DELETE /api/servers/{id}/traceroute/{request_id}` (admin) → `null`.
  func deleteTraceroute(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let serverID = context.parameter(0)
    let requestID = context.parameter(1)
    guard
      try db.execute(
        "DELETE FROM traceroutes WHERE request_id = ? AND server_id = ?",
        [.text(requestID), .text(serverID)]) == 1
    else {
      throw APIError.notFound("Traceroute record \(requestID) not found for server \(serverID)")
    }
    return Reply.data(JSONValue.null)
  }

  /// `DELETE /api/servers/{id}/traceroute` (admin) → `{deleted}`.
  func clearTraceroutes(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let deleted = try db.execute(
      "DELETE FROM traceroutes WHERE server_id = ?", [.text(context.parameter(0))])
    return Reply.data(JSONValue.object([("deleted", .integer(deleted))]))
  }

  // MARK: Progress

  /// Where a run stands on the clock.
  struct Progress {
    var plan: TraceroutePlan
    var startedAt: Int64
    var completedAt: Int64?
    var hops: Int
    var error: String?
  }

  /// The run of `row` on the clock; a run whose agent went away before it finished fails now.
  func progress(_ row: Row) throws -> Progress {
    let requestID = row["request_id"].text ?? ""
    let serverID = row["server_id"].text ?? ""
    let plan = TraceroutePlan(
      serverID: serverID, target: row["target"].text ?? "", requestID: requestID)
    let started = row["started_at"].int ?? 0
    var error = row["error"].text
    var failedAt = row["failed_at"].int
    // How long the agent has been working on the run at `time`: it sends nothing once stalled.
    let stalledAt = try stalledSince(serverID)
    func working(_ time: Int64) -> Int64 { max(0, min(time, stalledAt ?? time) - started) }
    let done = working(now) >= plan.duration
    if error == nil, !done, try core.server(id: serverID)?.online != true {
      error = "agent disconnected"
      failedAt = now
      try db.execute(
        "UPDATE traceroutes SET error = ?, failed_at = ? WHERE request_id = ?",
        [.text("agent disconnected"), .int(now), .text(requestID)])
    }
    // A failed run keeps the hops it had when the failure was seen.
    let elapsed = working(error == nil ? now : failedAt ?? started)
    let finished = error == nil && done
    return Progress(
      plan: plan, startedAt: started / 1_000_000,
      completedAt: finished ? (started + plan.duration) / 1_000_000 : nil,
      hops: plan.revealed(after: min(elapsed, plan.duration)), error: error)
  }

  /// The snapshot of `row`, in the wire's key order.
  func snapshot(_ row: Row) throws -> JSONValue {
    let progress = try progress(row)
    return .object([
      ("request_id", .text(row["request_id"].text)), ("target", .text(row["target"].text)),
      ("protocol", .text(row["protocol"].text)), ("started_at", .integer(progress.startedAt)),
      ("completed_at", .integer(progress.completedAt)), ("round", .integer(1)),
      ("total_rounds", .integer(1)), ("completed", .bool(progress.completedAt != nil)),
      ("hops", .array((0..<progress.hops).map { .object(progress.plan.hop($0 + 1)) })),
      ("error", .text(progress.error)),
    ])
  }

  // MARK: Stalled agents

  /// The `simulator_state` key of a stalled agent (its value: the simulator time it stalled,
  /// in seconds).
  static func stallKey(_ serverID: String) -> String { "traceroute_stalled:" + serverID }

  /// When the agent of `serverID` stalled (nanoseconds), or `nil` while it answers.
  func stalledSince(_ serverID: String) throws -> Int64? {
    try db.query(
      "SELECT value FROM simulator_state WHERE key = ?", [.text(Self.stallKey(serverID))]
    )
    .first?["value"].real.map { Int64(($0 * 1e9).rounded()) }
  }

  /// `POST /__simulator/servers/{id}/traceroute-agent {stalled}` → `{server_id, stalled}`:
  /// `stalled` (true by default) makes the server's agent stop sending hops from now: a run
  /// in progress keeps the hops it had and never completes, and a run started later shows none;
  /// `false` lets the runs go on as the clock says. 404 for an unknown server.
  func controlStall(_ context: RequestContext) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard try core.server(id: id) != nil else { throw APIError.notFound("Server not found") }
    let stalled = try context.controlBody().bool("stalled") ?? true
    if stalled {
      try db.execute(
        "INSERT OR IGNORE INTO simulator_state (key, value) VALUES (?, ?)",
        [.text(Self.stallKey(id)), .real(Double(now) / 1e9)])
    } else {
      try db.execute("DELETE FROM simulator_state WHERE key = ?", [.text(Self.stallKey(id))])
    }
    return Reply.object([("server_id", .string(id)), ("stalled", .bool(stalled))])
  }
}
