/// `GET /api/admin/rate-limit` (Protocol/Administration.md §3.1): the live rate-limit buckets and
/// the limits they count against. Counters live in the server's memory and reset when it restarts.
///
/// ```swift
/// let status = try await api.rateLimits()
/// for bucket in status.entries where bucket.blocked {
///   print(bucket.scope, bucket.ip, "free in", bucket.secondsRemaining, "s")
/// }
/// ```
public struct RateLimitStatus: Codable, Hashable, Sendable {
  /// Live buckets: blocked first, then by count descending, then newest window first; expired
  /// windows are left out.
  public var entries: [RateLimitBucket]
  /// Login attempts allowed per window (server configuration).
  public var loginMax: Int
  /// Registrations allowed per window (server configuration).
  public var registerMax: Int
  /// Public requests allowed per window (60).
  public var publicMax: Int
  /// Login and registration window, seconds (900).
  public var authWindowSeconds: Int
  /// Public window, seconds (60).
  public var publicWindowSeconds: Int

  /// Creates the value.
  /// - Parameters:
  ///   - entries: Live buckets.
  ///   - loginMax: Login limit.
  ///   - registerMax: Registration limit.
  ///   - publicMax: Public limit.
  ///   - authWindowSeconds: Auth window.
  ///   - publicWindowSeconds: Public window.
  public init(
    entries: [RateLimitBucket], loginMax: Int, registerMax: Int, publicMax: Int,
    authWindowSeconds: Int, publicWindowSeconds: Int
  ) {
    self.entries = entries
    self.loginMax = loginMax
    self.registerMax = registerMax
    self.publicMax = publicMax
    self.authWindowSeconds = authWindowSeconds
    self.publicWindowSeconds = publicWindowSeconds
  }

  private enum CodingKeys: String, CodingKey {
    case entries
    case loginMax = "login_max"
    case registerMax = "register_max"
    case publicMax = "public_max"
    case authWindowSeconds = "auth_window_seconds"
    case publicWindowSeconds = "public_window_seconds"
  }
}

/// A rate-limit scope: `login`, `register` or `public`; unknown values survive decoding.
public struct RateLimitScope: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a scope from its wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Login attempts (900-second window).
  public static let login: Self = "login"
  /// Registrations (900-second window).
  public static let register: Self = "register"
  /// Public routes (60-second window).
  public static let `public`: Self = "public"
}

/// One counter: a scope and an IP address in the current window.
public struct RateLimitBucket: Codable, Hashable, Sendable {
  /// The scope counted.
  public var scope: RateLimitScope
  /// The client address.
  public var ip: String
  /// Requests in this window.
  public var count: Int
  /// The limit of the scope.
  public var max: Int
  /// The window's length, seconds.
  public var windowSeconds: Int
  /// When the window started (`+00:00` form).
  public var windowStart: RFC3339Timestamp
  /// Seconds until the window ends, never negative.
  public var secondsRemaining: Int
  /// Whether `count >= max`.
  public var blocked: Bool

  /// Creates a bucket.
  /// - Parameters:
  ///   - scope: Scope.
  ///   - ip: Address.
  ///   - count: Count.
  ///   - max: Limit.
  ///   - windowSeconds: Window length.
  ///   - windowStart: Window start.
  ///   - secondsRemaining: Seconds left.
  ///   - blocked: Whether blocked.
  public init(
    scope: RateLimitScope, ip: String, count: Int, max: Int, windowSeconds: Int,
    windowStart: RFC3339Timestamp, secondsRemaining: Int, blocked: Bool
  ) {
    self.scope = scope
    self.ip = ip
    self.count = count
    self.max = max
    self.windowSeconds = windowSeconds
    self.windowStart = windowStart
    self.secondsRemaining = secondsRemaining
    self.blocked = blocked
  }

  private enum CodingKeys: String, CodingKey {
    case scope, ip, count, max
    case windowSeconds = "window_seconds"
    case windowStart = "window_start"
    case secondsRemaining = "seconds_remaining"
    case blocked
  }
}

/// `POST /api/admin/rate-limit/reset` body: which counters to clear. Both members are left out
/// when `nil`: no scope clears every scope, no IP the whole scope.
public struct RateLimitResetRequest: Encodable, Hashable, Sendable {
  /// The scope to clear, or `nil` for all.
  public var scope: RateLimitScope?
  /// The address to clear, or `nil` for every address.
  public var ip: String?

  /// Creates the body.
  /// - Parameters:
  ///   - scope: Scope, or `nil` for all.
  ///   - ip: Address, or `nil` for all.
  public init(scope: RateLimitScope? = nil, ip: String? = nil) {
    self.scope = scope
    self.ip = ip
  }

  /// `{}`, `{"scope"}`, `{"ip"}` or `{"scope","ip"}`.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: AnyCodingKey.self)
    if let scope { try c.encode(scope, forKey: AnyCodingKey("scope")) }
    if let ip { try c.encode(ip, forKey: AnyCodingKey("ip")) }
  }
}

/// `POST /api/admin/rate-limit/reset` answer.
public struct RateLimitResetResult: Codable, Hashable, Sendable {
  /// How many buckets were cleared.
  public var cleared: Int

  /// Creates the value.
  /// - Parameter cleared: Buckets cleared.
  public init(cleared: Int) { self.cleared = cleared }
}
