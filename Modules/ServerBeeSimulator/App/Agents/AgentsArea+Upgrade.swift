import Foundation
import ServerBeeCore
import ServerBeeModels
import ServerBeeTransport

// `POST /api/servers/{id}/upgrade` (Protocol/Agents.md §11): the checks in the documented order,
// then a run of `SimulatorCore+Upgrades.swift` on the simulator clock.
//
// [inferred], as Protocol/Agents.md §11 records:
// - the capability check reads the configured mask, which is what the simulator reports as
//   effective for an online agent; an offline one then gets `Agent not connected`;
// - SemVer is `MAJOR.MINOR.PATCH` of decimal numbers without leading zeros, with an optional
//   `-pre-release` and `+build` of dot-separated `[0-9A-Za-z-]` identifiers;
// - the frames carry the version without its `v`; the audit detail is the server id;
// - sending to the agent never fails here (no 500).

extension AgentsArea {
  /// The upgrade capability's bit (Protocol/Servers.md §1.2).
  static let upgradeCapability: Int64 = 4

  /// `POST /api/servers/{id}/upgrade {version}` (admin) → `"ok"`.
  func upgradeAgent(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    let requested = try context.jsonBody().string("version")
    let id = context.parameter(0)
    guard
      let row = try db.query(
        "SELECT online, capabilities FROM servers WHERE id = ?", [.text(id)]
      ).first
    else { throw APIError.notFound("Server not found") }
    guard (row["capabilities"].int ?? 1852) & Self.upgradeCapability != 0 else {
      if let caller { try core.audit(caller, "server_upgrade_denied", detail: id, context) }
      throw APIError.forbidden("agent_capability_disabled")
    }
    let version = requested.hasPrefix("v") ? String(requested.dropFirst()) : requested
    guard let parsed = Self.semVer(version) else {
      throw APIError.badRequest("Invalid version format")
    }
    guard row["online"].int == 1 else { throw APIError.notFound("Agent not connected") }
    if let running = core.runningUpgrade(id) {
      throw APIError.conflict(
        "Upgrade already running for server \(id) (job_id=\(running.jobID), "
          + "target_version=\(running.targetVersion))")
    }
    // Above the latest release, the release source has nothing to download.
    let latest = Self.latestRelease.version.flatMap(Self.semVer) ?? parsed
    _ = try core.startUpgrade(
      serverID: id, targetVersion: version, fails: latest.lexicographicallyPrecedes(parsed))
    if let caller { try core.audit(caller, "server_upgrade", detail: id, context) }
    return Reply.data("ok")
  }

  /// `MAJOR.MINOR.PATCH[-pre][+build]`'s three numbers; `nil` when `text` is not SemVer.
  static func semVer(_ text: String) -> [Int]? {
    var core = Substring(text)
    if let plus = core.firstIndex(of: "+") {
      guard identifiers(core[core.index(after: plus)...]) else { return nil }
      core = core[..<plus]
    }
    if let dash = core.firstIndex(of: "-") {
      guard identifiers(core[core.index(after: dash)...]) else { return nil }
      core = core[..<dash]
    }
    let parts = core.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var numbers: [Int] = []
    for part in parts {
      guard !part.isEmpty, part.allSatisfy(\.isASCIIDigit), part == "0" || part.first != "0",
        let number = Int(part)
      else { return nil }
      numbers.append(number)
    }
    return numbers
  }

  /// Dot-separated, non-empty identifiers of `[0-9A-Za-z-]`.
  private static func identifiers(_ text: Substring) -> Bool {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    return parts.allSatisfy { part in
      !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    }
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
