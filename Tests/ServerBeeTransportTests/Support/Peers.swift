import Foundation
import ServerBeeTestSupport

extension PeerProcess {
  /// The directory of this target's Python peer scripts.
  static let peersDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Peers")

  /// Starts one of this target's Python peer scripts from `Peers/`.
  static func python(_ script: String, _ arguments: [String] = []) async throws -> PeerProcess {
    try await python(peersDirectory.appendingPathComponent(script), arguments)
  }
}
