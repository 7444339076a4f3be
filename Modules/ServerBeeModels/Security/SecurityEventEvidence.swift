/// The `evidence` object of a security event, tagged by its `kind` member (Protocol/Security.md
/// §2).
///
/// Known kinds decode into typed values; a known kind whose members are wrong is a decoding
/// error naming the field. Any other kind (or an object without `kind`) is kept whole as
/// ``unknown(kind:raw:)``. When encoding, `kind` is the first key, as the server writes it.
///
/// ```swift
/// switch event.evidence {
/// case .sshBruteForce(let e)?: print("\(e.failedCount) failures from \(event.sourceIP)")
/// case .portScan(let e)?: print("\(e.distinctPorts) ports probed")
/// default: break
/// }
/// ```
public enum SecurityEventEvidence: Codable, Hashable, Sendable {
  /// `kind: "ssh_login"`.
  case sshLogin(SSHLoginEvidence)
  /// `kind: "ssh_brute_force"`.
  case sshBruteForce(SSHBruteForceEvidence)
  /// `kind: "port_scan"`.
  case portScan(PortScanEvidence)
  /// Any other kind, or no `kind`: the whole object as JSON.
  case unknown(kind: String?, raw: JSONValue)

  /// The `kind` text.
  public var kind: String? {
    switch self {
    case .sshLogin: return "ssh_login"
    case .sshBruteForce: return "ssh_brute_force"
    case .portScan: return "port_scan"
    case .unknown(let kind, _): return kind
    }
  }

  private enum KindKey: String, CodingKey { case kind }

  /// Decodes evidence by its `kind`.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field when a known kind has bad members.
  public init(from decoder: any Decoder) throws {
    let kind = try? decoder.container(keyedBy: KindKey.self).decodeIfPresent(
      String.self, forKey: .kind)
    switch kind {
    case "ssh_login": self = .sshLogin(try SSHLoginEvidence(from: decoder))
    case "ssh_brute_force": self = .sshBruteForce(try SSHBruteForceEvidence(from: decoder))
    case "port_scan": self = .portScan(try PortScanEvidence(from: decoder))
    default: self = .unknown(kind: kind, raw: try JSONValue(from: decoder))
    }
  }

  /// Encodes `kind` first, then the members.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    if case .unknown(_, let raw) = self {
      try raw.encode(to: encoder)
      return
    }
    var c = encoder.container(keyedBy: KindKey.self)
    try c.encodeUnlessNil(kind, forKey: .kind)
    switch self {
    case .sshLogin(let e): try e.encode(to: encoder)
    case .sshBruteForce(let e): try e.encode(to: encoder)
    case .portScan(let e): try e.encode(to: encoder)
    case .unknown: break
    }
  }
}

/// Evidence of a successful SSH login.
public struct SSHLoginEvidence: Codable, Hashable, Sendable {
  /// How the user authenticated.
  public var authMethod: SSHAuthMethod

  /// Creates evidence.
  /// - Parameter authMethod: The method.
  public init(authMethod: SSHAuthMethod) { self.authMethod = authMethod }

  private enum CodingKeys: String, CodingKey { case authMethod = "auth_method" }
}

/// An SSH authentication method (unknown values survive).
public struct SSHAuthMethod: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a method.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Public-key authentication.
  public static let publickey: Self = "publickey"
  /// Password authentication.
  public static let password: Self = "password"
  /// Keyboard-interactive authentication.
  public static let keyboardInteractive: Self = "keyboard_interactive"
  /// Anything else.
  public static let other: Self = "other"
}

/// Evidence of an SSH brute-force attempt.
public struct SSHBruteForceEvidence: Codable, Hashable, Sendable {
  /// Failed attempts in the window.
  public var failedCount: Int
  /// Distinct user names tried.
  public var distinctUsers: Int
  /// Some of the user names tried.
  public var sampleUsers: [String]
  /// Attempts naming users that do not exist.
  public var invalidUserCount: Int
  /// The detection window, seconds.
  public var windowSeconds: Int
  /// The failure count that triggers detection.
  public var threshold: Int

  /// Creates evidence.
  /// - Parameters:
  ///   - failedCount: Failures.
  ///   - distinctUsers: Distinct users.
  ///   - sampleUsers: Sample of users.
  ///   - invalidUserCount: Unknown-user attempts.
  ///   - windowSeconds: Window length.
  ///   - threshold: Trigger threshold.
  public init(
    failedCount: Int, distinctUsers: Int, sampleUsers: [String], invalidUserCount: Int,
    windowSeconds: Int, threshold: Int
  ) {
    self.failedCount = failedCount
    self.distinctUsers = distinctUsers
    self.sampleUsers = sampleUsers
    self.invalidUserCount = invalidUserCount
    self.windowSeconds = windowSeconds
    self.threshold = threshold
  }

  private enum CodingKeys: String, CodingKey {
    case failedCount = "failed_count"
    case distinctUsers = "distinct_users"
    case sampleUsers = "sample_users"
    case invalidUserCount = "invalid_user_count"
    case windowSeconds = "window_seconds"
    case threshold
  }
}

/// Evidence of a port scan.
public struct PortScanEvidence: Codable, Hashable, Sendable {
  /// Distinct ports probed.
  public var distinctPorts: Int
  /// Some of the ports probed.
  public var samplePorts: [Int]
  /// Connection attempts in the window.
  public var totalAttempts: Int
  /// The detection window, seconds.
  public var windowSeconds: Int
  /// The distinct-port count that triggers detection.
  public var threshold: Int
  /// Attempts the firewall blocked.
  public var blockedCount: Int

  /// Creates evidence.
  /// - Parameters:
  ///   - distinctPorts: Distinct ports.
  ///   - samplePorts: Sample of ports.
  ///   - totalAttempts: Attempts.
  ///   - windowSeconds: Window length.
  ///   - threshold: Trigger threshold.
  ///   - blockedCount: Blocked attempts.
  public init(
    distinctPorts: Int, samplePorts: [Int], totalAttempts: Int, windowSeconds: Int,
    threshold: Int, blockedCount: Int
  ) {
    self.distinctPorts = distinctPorts
    self.samplePorts = samplePorts
    self.totalAttempts = totalAttempts
    self.windowSeconds = windowSeconds
    self.threshold = threshold
    self.blockedCount = blockedCount
  }

  private enum CodingKeys: String, CodingKey {
    case distinctPorts = "distinct_ports"
    case samplePorts = "sample_ports"
    case totalAttempts = "total_attempts"
    case windowSeconds = "window_seconds"
    case threshold
    case blockedCount = "blocked_count"
  }
}
