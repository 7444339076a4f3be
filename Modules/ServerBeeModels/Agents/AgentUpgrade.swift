#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The body of upgrading a server's agent: `{version}` (Protocol/Agents.md §11). The server
/// strips one leading `v` and needs SemVer; `"latest"` is refused, so ask
/// `GET /api/agent/latest-version` for the newest release first.
///
/// ```swift
/// let body = UpgradeAgentRequest(version: "1.5.0")  // {"version":"1.5.0"}
/// ```
public struct UpgradeAgentRequest: Codable, Hashable, Sendable {
  /// The version to install, SemVer with or without a leading `v`.
  public var version: String

  /// Creates a body.
  /// - Parameter version: The version to install.
  public init(version: String) { self.version = version }
}

/// Why the server refused to start an agent upgrade (Protocol/Agents.md §11): the documented
/// refusals of `POST /api/servers/{id}/upgrade`, read from their status and message. Progress
/// and the outcome of a started upgrade come on the live stream (`upgrade_progress`,
/// `upgrade_result`), not here.
///
/// ```swift
/// catch let failure as APIFailure {
///   if case .alreadyRunning(let job, let version)? = failure.upgradeRefusal {
///     print("job \(job ?? "?") is installing \(version ?? "?") already")
///   }
/// }
/// ```
public enum AgentUpgradeRefusal: Hashable, Sendable {
  /// 404 `Server not found`.
  case serverNotFound
  /// 403 `agent_capability_disabled`: the upgrade capability (bit 4) is off for the server.
  case capabilityDisabled
  /// 400 `Invalid version format`: not SemVer (`latest` included).
  case invalidVersion
  /// 404 `Agent not connected`: the agent is offline.
  case agentNotConnected
  /// 409 `Upgrade already running for server <id> (job_id=…, target_version=…)`, with the
  /// running job's id and version when the message names them.
  case alreadyRunning(jobID: String?, targetVersion: String?)
}

extension APIFailure {
  /// The refusal of an agent upgrade this failure is, or `nil` when it is none of the
  /// documented ones (Protocol/Agents.md §11).
  public var upgradeRefusal: AgentUpgradeRefusal? {
    guard let detail else { return nil }
    switch (status, detail) {
    case (404, "Server not found"): return .serverNotFound
    case (403, "agent_capability_disabled"): return .capabilityDisabled
    case (400, "Invalid version format"): return .invalidVersion
    case (404, "Agent not connected"): return .agentNotConnected
    case (409, _) where detail.hasPrefix("Upgrade already running for server "):
      return .alreadyRunning(
        jobID: Self.value(of: "job_id", in: detail),
        targetVersion: Self.value(of: "target_version", in: detail))
    default: return nil
    }
  }

  /// `value` of `key=value` in `(…, key=value, …)`; `nil` when absent or empty.
  private static func value(of key: String, in text: String) -> String? {
    let marker = key + "="
    var rest = Substring(text)
    while !rest.isEmpty {
      if rest.hasPrefix(marker) {
        let value = rest.dropFirst(marker.count).prefix { $0 != "," && $0 != ")" }
        return value.isEmpty ? nil : String(value)
      }
      rest = rest.dropFirst()
    }
    return nil
  }
}
