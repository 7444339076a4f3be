import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeSocketTransport
import ServerBeeTransport

/// The application: every route of the contract as a synchronous function of a request, and
/// the state every area shares.
///
/// The routes belong to areas (``SimulatorArea``, one folder each under `App/`, listed in
/// ``areas``); this type routes a request to one, after checking its caller or the control
/// token. What several areas use lives here: the database, the clock, randomness, the settings,
/// the live hub and the in-memory state, with the shared helpers in `App/Shared/` (credentials,
/// users, sessions, the audit log) and in the folders of the areas that own their tables.
///
/// All state lives in SQLite except pair codes and the login rate-limit window, which real
/// servers keep in memory too. Each request runs under the database lock, so every
/// read-check-write sequence is atomic (one serial writer).
final class SimulatorCore: Sendable {
  /// The SQLite database; every route runs under its lock.
  let db: Database
  /// The simulator's time (``now``), advanced by tests and the control API.
  let clock: SimulatorClock
  /// The injected randomness (ids, tokens, salts, simulated numbers).
  let random: RandomBytes
  /// The configuration the simulator was made with.
  let settings: Simulator.Configuration
  /// The `X-Simulator-Token` the control routes need.
  let controlToken: String
  /// The live stream's subscribers, which presence, metrics and security events reach.
  let hub: LiveHub
  /// Live pair codes by code (Protocol/Auth.md §5.1: kept in memory, lost on restart).
  let pairCodes = Locked<[String: PairCode]>([:])
  /// Two-factor setups waiting for their first code, by user id (Protocol/Account.md §2.2: kept in
  /// memory for 10 minutes, lost on restart, a new setup replaces the pending one).
  let pendingTwoFactor = Locked<[String: PendingTwoFactor]>([:])
  /// Login attempts per IP in the current window (``consumeLoginAttempt(_:)``).
  let loginWindows = Locked<[String: (start: Int64, count: Int)]>([:])
  /// The base URL the simulator is reached at, for pair-code QR payloads.
  let serverURL = Locked<String>("http://127.0.0.1")
  /// `[push_relay].url` (Protocol/Push.md §2.7); changeable at run time through the control API.
  let relayURL: Locked<String?>
  /// The last relay URL ``usableRelayURL`` judged, and whether it is usable.
  let relayVerdict = Locked<(text: String, usable: Bool)?>(nil)
  /// The relay client the outbox sends through.
  let relayLink: RelayLink
  /// Wakes the outbox workers when a job is admitted.
  let outboxSignal = OutboxSignal()
  /// The server rows and the `GET /api/servers` body while the database is unchanged.
  let serverCache: ServerCache
  /// What each recently used token stands for, while the rows it was read from are unchanged
  /// (``caller(token:viaBearer:)``).
  let callers = VersionedCache<String, CallerRows>()
  /// Logins whose queued pushes may still be sent, until their session's `expires_at`, while
  /// the rows that decided it are unchanged (``claimDueJobs(limit:)``).
  let eligibleLogins = VersionedCache<EligibilityKey, Int64>()
  /// The one log line for refused connections (``Simulator/Configuration/log``).
  let refusals: RefusalLog
  /// When the next open enrollment offer lapses (stored nanoseconds), `nil` until first read
  /// (``expireLapsedOffers()``); `Int64.max` when none is open.
  let nextOfferLapse = Locked<Int64?>(nil)
  /// When the next enabled scheduled task is due (stored nanoseconds), `nil` until first read or
  /// after a task changed (``fireDueTasks()``); `Int64.max` when none is.
  let nextScheduledRun = Locked<Int64?>(nil)
  /// Agent self-upgrades by server id (Protocol/Agents.md §11): kept in memory, as a real
  /// server's agent manager keeps them; lost on restart.
  let upgrades = Locked<[String: UpgradeRun]>([:])

  /// One second in the unit of stored times (nanoseconds).
  static let second: Int64 = 1_000_000_000

  /// The largest relay answer read, 64 KiB. A verdict (Protocol/Relay.md) is under 100 bytes;
  /// the transport's default of 16 MiB let one misbehaving or hostile relay make every outbox
  /// worker buffer 16 MiB and copy it on the way (about 36 MiB at the peak, per worker). Past
  /// the cap the transport stops reading and closes the connection, and the attempt is a
  /// transport failure, retried with backoff like a refused or lost connection.
  static let relayAnswerLimit = 64 << 10

  init(settings: Simulator.Configuration, clock: SimulatorClock, random: @escaping RandomBytes)
    throws
  {
    self.settings = settings
    self.clock = clock
    self.random = random
    // The directory exists, is locked and private by now (`DataDirectoryLock`, taken first).
    db = try Database(
      path: settings.dataDirectory.appendingPathComponent(DataDirectoryLock.databaseFileName).path)
    try Schema.migrate(db)
    controlToken = settings.controlToken ?? Crypto.token(random)
    hub = LiveHub()
    refusals = RefusalLog(log: settings.log)
    serverCache = ServerCache(enabled: settings.cachesAnswers)
    relayURL = Locked(settings.relayURL)
    relayLink = RelayLink(
      transport: settings.relayTransport
        ?? SocketHTTPTransport(
          configuration: .init(
            timeout: .milliseconds(Int64(settings.relayTimeout * 1000)),
            maxResponseSize: Self.relayAnswerLimit)))
    // One process owns the database: a lease left by a previous run (killed in the middle of
    // an attempt) is released at once, so the job is retried with the same event id.
    try db.execute(
      "UPDATE push_outbox SET lease_id = NULL, lease_until = NULL WHERE lease_id IS NOT NULL")
  }

  /// The simulator clock's time in nanoseconds since 1970, the unit of every stored time.
  var now: Int64 { clock.nowNanos }

  /// ``now`` in whole Unix seconds (push contents and maintenance windows count in seconds).
  var nowSeconds: Int64 { now / Self.second }

  /// Whole Unix seconds of a simulator time (rounded down, as `created_at` is).
  static func seconds(_ nanos: Int64) -> Int64 {
    nanos >= 0 ? nanos / second : (nanos - second + 1) / second
  }

  // MARK: Entry

  /// Answers one request: `healthz`, the outbox run (outside the lock), or a route of the
  /// tables; an ``APIError`` becomes its exact response, any other failure a 500.
  func respond(_ request: HTTPRequest, remoteAddress: String) -> HTTPResponse {
    var context = RequestContext(request, remoteAddress: remoteAddress)
    if let step = outboxRunRequest(context) {
      // Waits for the relay: never under the database lock, and on the caller's own thread
      // (the connection's), which may block.
      return step { try runOutboxPassBlocking() }
    }
    do {
      // Only the route's reads and writes hold the lock; encoding a large answer happens
      // after, in parallel with other requests.
      switch try db.serial({ try route(&context) }) {
      case .response(let response): return response
      case .finish(let finish): return try finish()
      }
    } catch let error as APIError {
      return error.response
    } catch {
      return Reply.error(500, .internalError, "Internal error: Database error")
    }
  }

  /// Finds the route (``apiRoutes`` or ``controlRoutes``), checks the control token or the
  /// caller against its ``RouteAccess``, and runs its handler; 404 for an unknown path, 405 for
  /// a known path with another method.
  private func route(_ context: inout RequestContext) throws -> RouteAnswer {
    let segments = context.segments
    if segments == ["healthz"] {
      guard context.method == "GET" else { throw APIError.bare(405) }
      return .response(Reply.text(200, "ok"))
    }
    let isControl = segments.first == "__simulator"
    guard isControl || segments.first == "api" else { throw APIError.bare(404) }
    let table = isControl ? Self.controlRoutes : Self.apiRoutes
    var pathMatched = false
    for route in table {
      guard let parameters = route.match(segments) else { continue }
      pathMatched = true
      guard route.method == context.method else { continue }
      context.parameters = parameters
      if isControl {
        guard context.request.headers["x-simulator-token"] == controlToken else {
          throw APIError.bare(401)
        }
        return try route.handler(self, context, nil)
      }
      switch route.access {
      case .open:
        return try route.handler(self, context, nil)
      case .protected, .admin, .ungated:
        guard let caller = try authenticate(context.request.headers) else {
          throw APIError.bare(401)
        }
        if caller.user.mustChangePassword, route.access != .ungated {
          throw APIError.mustChangePassword
        }
        if route.access == .admin, caller.user.role != "admin" { throw APIError.bare(403) }
        return try route.handler(self, context, caller)
      }
    }
    throw APIError.bare(pathMatched ? 405 : 404)
  }
}
