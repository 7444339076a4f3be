import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

/// Credentials, shared by every area (Protocol/README.md §9, Protocol/Auth.md §1.1): who the caller
/// of a request is, the tokens the simulator issues, passwords and the per-IP login window.
extension SimulatorCore {
  /// Login attempts allowed per IP in one window (Protocol/Auth.md §1.1).
  static let loginMax = 5
  /// The login window, counted from the first attempt.
  static let loginWindowSeconds = 15 * 60

  /// Cookie `session_token`, then `X-API-Key`, then `Authorization: Bearer` (Protocol/README.md
  /// §9); an invalid credential is skipped, not fatal.
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

  /// The SQL of ``caller(token:viaBearer:)``'s access-session read.
  static let accessSessionByHash = """
    SELECT user_id, mobile_session_id, source, expires_at FROM access_sessions
    WHERE token_hash = ? AND expires_at > ?
    """

  /// The caller a token stands for while its access session lives, or `nil`.
  func caller(token: String, viaBearer: Bool) throws -> Caller? {
    try callerWithSession(token: token, viaBearer: viaBearer)?.caller
  }

  /// ``caller(token:viaBearer:)`` with the row of its mobile session (`nil` when it has none or
  /// the row is gone), read with it.
  func callerWithSession(token: String, viaBearer: Bool) throws
    -> (caller: Caller, session: MobileSessionRow?)?
  {
    guard var rows = try callerRows(token: token) else { return nil }
    rows.caller.viaBearer = viaBearer
    return (rows.caller, rows.mobileSession)
  }

  /// The rows behind a token while its access session lives, from ``callers`` when they are
  /// unchanged since they were read (``Database/accountsVersion``), else read (and kept).
  ///
  /// Every authenticated request hashed its token (SHA-256) and read the access session, the
  /// user and, on the push routes, the mobile session: about 75 k instructions a request, the
  /// largest single cost of a test push's admission and of its status read. What the clock
  /// decides is decided again on every use: an access session past its `expires_at` is
  /// refused as the query refuses it, a `last_used_at` due a bump is bumped (and the rows
  /// read again), and the mobile session row goes to the caller's own checks.
  private func callerRows(token: String) throws -> CallerRows? {
    guard !token.isEmpty else { return nil }
    return try db.serial {
      let now = self.now
      if let kept = callers.value(for: token, at: db.accountsVersion),
        // `last_used_at` due a bump: read again below, after the write.
        (kept.mobileSession?.lastUsedAt ?? now) >= now - Self.second
      {
        return kept.caller.expiresAt > now ? kept : nil
      }
      let hash = SHA256.hex(token)
      // By column index, with no dictionary per row (every authenticated request reads it).
      guard
        let row = try db.read(
          Self.accessSessionByHash, [.text(hash), .int(now)],
          { (userID: $0.text(0), mobileID: $0.text(1), source: $0.text(2), expiresAt: $0.int(3)) }
        ).first,
        let user = try user(id: row.userID ?? "")
      else { return nil }
      let mobileID = row.mobileID
      var session: MobileSessionRow?
      if let mobileID {
        // `last_used_at` is bumped on use; at most once per second so read load stays read-only.
        try db.execute(
          "UPDATE mobile_sessions SET last_used_at = ? WHERE id = ? AND last_used_at < ?",
          [.int(now), .text(mobileID), .int(now - Self.second)])
        session = try mobileSession(id: mobileID)
      }
      let rows = CallerRows(
        caller: Caller(
          user: user, source: row.source ?? "web", accessHash: hash, mobileSessionID: mobileID,
          expiresAt: row.expiresAt ?? 0, viaBearer: false),
        mobileSession: session)
      // At the version after every read and write above, under the same lock.
      callers.keep(rows, for: token, at: db.accountsVersion)
      return rows
    }
  }

  /// The mobile login behind the `Authorization: Bearer` header, whatever credential the
  /// middleware accepted (Protocol/Auth.md §6, Protocol/Push.md §1 steps 3–4): no Bearer header (an
  /// API key or a cookie) or an unknown token → 401 JSON; a web token → 400 `This session is not a
  /// mobile session`.
  func mobileBearer(_ context: RequestContext) throws -> (caller: Caller, sessionID: String) {
    guard let authorization = context.request.headers["authorization"],
      authorization.hasPrefix("Bearer "),
      let bearer = try caller(token: String(authorization.dropFirst(7)), viaBearer: true)
    else { throw APIError.unauthorized }
    guard bearer.source == "mobile", let sessionID = bearer.mobileSessionID else {
      throw APIError.badRequest("This session is not a mobile session")
    }
    return (bearer, sessionID)
  }

  /// Issues an access token for `source` (`mobile`, `web` or `api_key`) with its lifetime.
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

  /// Whether `password` is the user's (PBKDF2 with the stored salt).
  func passwordMatches(_ user: UserRow, _ password: String) -> Bool {
    guard let salt = Base64URL.decode(user.salt) else { return false }
    return Hex.encode(Crypto.pbkdf2(password: password, salt: salt)) == user.passwordHash
  }

  /// A fresh salt and the PBKDF2 hash of `password`, both as stored.
  func hashPassword(_ password: String) -> (salt: String, hash: String) {
    let salt = random(16)
    return (Base64URL.encode(salt), Hex.encode(Crypto.pbkdf2(password: password, salt: salt)))
  }

  /// At least 8 Unicode scalars, else 422 (Protocol/Account.md §1, Protocol/Administration.md
  /// §1.2).
  static func checkPasswordLength(_ password: String) throws {
    guard password.unicodeScalars.count >= 8 else {
      throw APIError.validation("Password must be at least 8 characters")
    }
  }
}
