import Foundation
import ServerBeeModels
import ServerBeeTransport

// Rate limits (Protocol/Administration.md §3, admin only). The simulator counts login attempts
// per IP (5 per 15 minutes, Protocol/Auth.md §1.1); it has no registration or public-route
// limiter, so only `login` buckets ever appear. Counters live in memory, as upstream's do.

extension AccountArea {
  /// `GET /api/admin/rate-limit`: live buckets, blocked first, then by count descending, then
  /// newest window first; expired windows are left out.
  func rateLimits(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let now = self.now
    let window = Int64(SimulatorCore.loginWindowSeconds) * Self.second
    let live = core.loginWindows.withLock { windows in
      windows.filter { now - $0.value.start < window }
    }
    let buckets = live.map { ip, entry in
      RateLimitBucket(
        scope: .login, ip: ip, count: entry.count, max: SimulatorCore.loginMax,
        windowSeconds: SimulatorCore.loginWindowSeconds,
        windowStart: timestamp(entry.start, .utcOffset),
        secondsRemaining: max(0, Int((entry.start + window - now) / Self.second)),
        blocked: entry.count >= SimulatorCore.loginMax)
    }.sorted { a, b in
      if a.blocked != b.blocked { return a.blocked }
      if a.count != b.count { return a.count > b.count }
      return a.windowStart > b.windowStart
    }
    return Reply.data(
      RateLimitStatus(
        entries: buckets, loginMax: SimulatorCore.loginMax, registerMax: 3, publicMax: 60,
        authWindowSeconds: SimulatorCore.loginWindowSeconds, publicWindowSeconds: 60))
  }

  /// `POST /api/admin/rate-limit/reset {scope?, ip?}` (a JSON object is required; `{}` resets
  /// everything). Answers `{cleared}`. `scope` is one of the bucket scopes
  /// (`Protocol/Administration.md §3.2`); another value is refused as serde refuses an unknown
  /// enum variant, with the plain-text 422 of axum's JSON extractor (the text is inferred: the
  /// documents give none).
  func resetRateLimits(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let body = try context.jsonBody()
    let scope = try body.optionalString("scope")
    if let scope, !Self.rateLimitScopes.contains(scope) {
      throw APIError.plain(
        422,
        "Failed to deserialize the JSON body into the target type: scope: unknown variant "
          + "`\(scope)`, expected one of "
          + Self.rateLimitScopes.map { "`\($0)`" }.joined(separator: ", "))
    }
    let ip = try body.optionalString("ip").flatMap { $0.isEmpty ? nil : $0 }
    var cleared = 0
    if scope == nil || scope == "login" {
      cleared = core.loginWindows.withLock { windows in
        if let ip { return windows.removeValue(forKey: ip) == nil ? 0 : 1 }
        defer { windows.removeAll() }
        return windows.count
      }
    }
    try core.audit(caller, "rate_limit.reset", detail: scope ?? "all", context)
    return Reply.data(RateLimitResetResult(cleared: cleared))
  }

  /// The scopes of the rate-limit buckets, in the server's order
  /// (`Protocol/Administration.md §3.1`); the simulator keeps only `login` buckets.
  static let rateLimitScopes = ["login", "register", "public"]
}
