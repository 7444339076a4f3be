import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeSocketTransport
import ServerBeeTransport

/// A stored user.
struct UserRow: Sendable, Equatable {
  var id: String
  var username: String
  var role: String
  var salt: String
  var passwordHash: String
  var totpSecret: String?
  var mustChangePassword: Bool
  var passwordChangedAt: Int64?

  init(_ row: Row) {
    id = row["id"].text ?? ""
    username = row["username"].text ?? ""
    role = row["role"].text ?? "member"
    salt = row["password_salt"].text ?? ""
    passwordHash = row["password_hash"].text ?? ""
    totpSecret = row["totp_secret"].text
    mustChangePassword = row["must_change_password"].bool
    passwordChangedAt = row["password_changed_at"].int
  }

  var sessionUser: SessionUser {
    SessionUser(id: id, username: username, role: UserRole(rawValue: role))
  }
}

/// A stored mobile session (one login).
struct MobileSessionRow: Sendable {
  var id: String
  var userID: String
  var refreshHash: String
  var revocationHash: String?
  var installationID: String
  var deviceName: String
  var createdAt: Int64
  var expiresAt: Int64
  var lastUsedAt: Int64
  var verifiedAt: Int64

  init(_ row: Row) {
    id = row["id"].text ?? ""
    userID = row["user_id"].text ?? ""
    refreshHash = row["refresh_hash"].text ?? ""
    revocationHash = row["revocation_hash"].text
    installationID = row["installation_id"].text ?? ""
    deviceName = row["device_name"].text ?? ""
    createdAt = row["created_at"].int ?? 0
    expiresAt = row["expires_at"].int ?? 0
    lastUsedAt = row["last_used_at"].int ?? 0
    verifiedAt = row["verified_at"].int ?? 0
  }
}

/// The authenticated caller of a protected route.
struct Caller: Sendable {
  var user: UserRow
  var source: String
  var accessHash: String
  var mobileSessionID: String?
  var expiresAt: Int64
  var viaBearer: Bool
}

/// A pair code kept in memory (wire contract v1 §2.5: lost on restart), with the account snapshot taken at
/// generation for QR recovery (wire contract v2 §2.3).
struct PairCode: Sendable {
  var userID: String
  var createdAt: Int64
  var snapshot: UserRow
}

/// The application: every route of the contract as a synchronous function of a request.
///
/// All state lives in SQLite except pair codes and the login rate-limit window, which real
/// servers keep in memory too. Each request runs under the database lock, so every
/// read-check-write sequence is atomic (one serial writer).
final class SimulatorCore: Sendable {
  let db: Database
  let clock: SimulatorClock
  let random: RandomBytes
  let settings: Simulator.Configuration
  let controlToken: String
  let hub: LiveHub
  let pairCodes = Locked<[String: PairCode]>([:])
  let loginWindows = Locked<[String: (start: Int64, count: Int)]>([:])
  let serverURL = Locked<String>("http://127.0.0.1")
  /// `[push_relay].url` (wire contract v2 §3.7); changeable at run time through the control API.
  let relayURL: Locked<String?>
  let relayLink: RelayLink
  let outboxSignal = OutboxSignal()
  /// The server rows and the `GET /api/servers` body while the database is unchanged.
  let serverCache: ServerCache
  /// The one log line for refused connections (``Simulator/Configuration/log``).
  let refusals: RefusalLog

  static let second: Int64 = 1_000_000_000

  /// The largest relay answer read, 64 KiB. A verdict (wire contract v2 §7) is under 100 bytes;
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

  var now: Int64 { clock.nowNanos }

  // MARK: Entry

  func respond(_ request: HTTPRequest, remoteAddress: String) -> HTTPResponse {
    var context = RequestContext(request, remoteAddress: remoteAddress)
    if let step = outboxRunRequest(context) {
      // Waits for the relay: never under the database lock, and on the caller's own thread
      // (the connection's), which may block.
      return step { try runOutboxPassBlocking() }
    }
    do {
      // Only the route's reads and writes hold the lock; encoding a large answer happens
      // after, in parallel with other requests (issue 24).
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

  // MARK: Credentials

  /// Cookie `session_token`, then `X-API-Key`, then `Authorization: Bearer` (wire contract v1 §1.7); an
  /// invalid credential is skipped, not fatal.
  func authenticate(_ headers: HTTPHeaders) throws -> Caller? {
    if let cookie = headers["cookie"] {
      for part in cookie.split(separator: ";") {
        let pair = part.trimmingCharacters(in: .whitespaces)
        if pair.hasPrefix("session_token="),
          let caller = try caller(token: String(pair.dropFirst(14)), viaBearer: false)
        {
          return caller
        }
      }
    }
    if let key = headers["x-api-key"], key.hasPrefix("serverbee_"),
      let caller = try caller(token: key, viaBearer: false), caller.source == "api_key"
    {
      return caller
    }
    if let authorization = headers["authorization"], authorization.hasPrefix("Bearer ") {
      return try caller(token: String(authorization.dropFirst(7)), viaBearer: true)
    }
    return nil
  }

  func caller(token: String, viaBearer: Bool) throws -> Caller? {
    guard !token.isEmpty else { return nil }
    let hash = SHA256.hex(token)
    guard
      let row = try db.query(
        "SELECT * FROM access_sessions WHERE token_hash = ? AND expires_at > ?",
        [.text(hash), .int(now)]
      ).first,
      let user = try user(id: row["user_id"].text ?? "")
    else { return nil }
    let mobileID = row["mobile_session_id"].text
    if let mobileID {
      // `last_used_at` is bumped on use; at most once per second so read load stays read-only.
      try db.execute(
        "UPDATE mobile_sessions SET last_used_at = ? WHERE id = ? AND last_used_at < ?",
        [.int(now), .text(mobileID), .int(now - Self.second)])
    }
    return Caller(
      user: user, source: row["source"].text ?? "web", accessHash: hash,
      mobileSessionID: mobileID, expiresAt: row["expires_at"].int ?? 0, viaBearer: viaBearer)
  }

  func user(id: String) throws -> UserRow? {
    try db.query("SELECT * FROM users WHERE id = ?", [.text(id)]).first.map(UserRow.init)
  }

  func user(named name: String) throws -> UserRow? {
    try db.query("SELECT * FROM users WHERE username = ?", [.text(name)]).first.map(UserRow.init)
  }

  func passwordMatches(_ user: UserRow, _ password: String) -> Bool {
    guard let salt = Base64URL.decode(user.salt) else { return false }
    return Hex.encode(Crypto.pbkdf2(password: password, salt: salt)) == user.passwordHash
  }

  func hashPassword(_ password: String) -> (salt: String, hash: String) {
    let salt = random(16)
    return (Base64URL.encode(salt), Hex.encode(Crypto.pbkdf2(password: password, salt: salt)))
  }

  /// Counts one login attempt for `ip`: 5 per 15-minute window from the first attempt.
  func consumeLoginAttempt(_ ip: String) -> Bool {
    let now = self.now
    let window = Int64(Self.loginWindowSeconds) * Self.second
    return loginWindows.withLock { windows in
      var entry = windows[ip] ?? (start: now, count: 0)
      if now - entry.start >= window { entry = (start: now, count: 0) }
      guard entry.count < Self.loginMax else {
        windows[ip] = entry
        return false
      }
      entry.count += 1
      windows[ip] = entry
      return true
    }
  }

  func issueAccessToken(userID: String, mobileSessionID: String?, source: String) throws -> String {
    let token = (source == "api_key" ? "serverbee_" : "") + Crypto.token(random)
    let ttl: Int64
    switch source {
    case "mobile": ttl = settings.accessTTL
    case "api_key": ttl = 100 * 365 * 86_400  // until deleted
    default: ttl = settings.webSessionTTL
    }
    try db.execute(
      "INSERT INTO access_sessions VALUES (?, ?, ?, ?, ?, ?)",
      [
        .text(SHA256.hex(token)), .text(userID), .text(source), mobileSessionID.sql,
        .int(now), .int(now + ttl * Self.second),
      ])
    return token
  }

  /// Deletes one mobile session and everything that references it (wire contract v2 §2.5 "Deletion"),
  /// including its legacy push token and its encrypted registration (releasing the
  /// installation's row, wire contract v2 §3.1) (logout, device revoke, `/auth/revoke`, recover, password
  /// changes); refresh never calls it, so registrations survive a refresh (wire contract v2 §1).
  func deleteMobileSession(_ id: String) throws {
    try db.execute("DELETE FROM access_sessions WHERE mobile_session_id = ?", [.text(id)])
    try db.execute("DELETE FROM session_proofs WHERE session_id = ?", [.text(id)])
    try db.execute("DELETE FROM push_legacy_tokens WHERE mobile_session_id = ?", [.text(id)])
    try db.execute("DELETE FROM push_registrations WHERE mobile_session_id = ?", [.text(id)])
    try db.execute("DELETE FROM mobile_sessions WHERE id = ?", [.text(id)])
  }

  func deleteAllSessions(ofUser userID: String, except keep: Caller? = nil) throws {
    let sessions = try db.query(
      "SELECT id FROM mobile_sessions WHERE user_id = ?", [.text(userID)])
    for row in sessions {
      guard let id = row["id"].text, id != keep?.mobileSessionID else { continue }
      try deleteMobileSession(id)
    }
    // API keys are not sessions: a password change or reset leaves them (app routes §3.1 #9).
    try db.execute(
      "DELETE FROM access_sessions WHERE user_id = ? AND token_hash != ? AND source != 'api_key'",
      [.text(userID), .text(keep?.accessHash ?? "")])
    // A password change also deletes the user's push tokens (v1 §11); the kept login keeps its.
    try db.execute(
      "DELETE FROM push_legacy_tokens WHERE user_id = ? AND mobile_session_id != ?",
      [.text(userID), .text(keep?.mobileSessionID ?? "")])
    try db.execute(
      "DELETE FROM push_registrations WHERE user_id = ? AND mobile_session_id != ?",
      [.text(userID), .text(keep?.mobileSessionID ?? "")])
  }

  func mobileSession(id: String) throws -> MobileSessionRow? {
    try db.query("SELECT * FROM mobile_sessions WHERE id = ?", [.text(id)]).first
      .map(MobileSessionRow.init)
  }
}

/// Who may call a route.
enum RouteAccess: Sendable {
  /// No credential.
  case open
  /// Any valid credential; `must_change_password` users get 403 JSON.
  case protected
  /// Any valid credential, even a user flagged `must_change_password` (`/auth/me`).
  case ungated
  /// Admin role; others get a bare 403.
  case admin
}

typealias RouteHandler =
  @Sendable (SimulatorCore, RequestContext, Caller?) throws -> HTTPResponse

/// What a route produces under the database lock.
enum RouteAnswer {
  /// The finished response.
  case response(HTTPResponse)
  /// Work that finishes the response after the lock is released: encoding rows read under the
  /// lock, so that one large answer does not hold every other request up (issue 24).
  case finish(() throws -> HTTPResponse)
}

struct Route: Sendable {
  let method: String
  let pattern: [String]
  let access: RouteAccess
  let handler: @Sendable (SimulatorCore, RequestContext, Caller?) throws -> RouteAnswer

  init(_ method: String, _ path: String, _ access: RouteAccess, _ handler: @escaping RouteHandler) {
    self.init(method, path, access, answering: { .response(try handler($0, $1, $2)) })
  }

  /// A route whose handler may finish its response outside the lock.
  init(
    _ method: String, _ path: String, _ access: RouteAccess,
    answering handler:
      @escaping @Sendable (SimulatorCore, RequestContext, Caller?) throws
      -> RouteAnswer
  ) {
    self.method = method
    self.pattern = path.split(separator: "/").map(String.init)
    self.access = access
    self.handler = handler
  }

  func match(_ segments: [String]) -> [String]? {
    guard segments.count == pattern.count else { return nil }
    var parameters: [String] = []
    for (part, segment) in zip(pattern, segments) {
      if part == "*" {
        parameters.append(segment)
      } else if part != segment {
        return nil
      }
    }
    return parameters
  }
}
