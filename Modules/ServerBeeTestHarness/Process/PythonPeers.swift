package import Foundation

extension PeerProcess {
  /// The directory of the Python peer scripts shared by the transport and server test targets:
  /// `Tests/Peers`, found from this file's place in the checkout
  /// (`Modules/ServerBeeTestHarness/Process/`, three levels below the package root).
  package static let peersDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Tests").appendingPathComponent("Peers")

  /// Starts one of the Python peer scripts from `Tests/Peers`.
  /// - Parameters:
  ///   - script: The script's file name, for example `ws_server_peer.py`.
  ///   - arguments: Its command-line arguments.
  /// - Returns: The running peer.
  /// - Throws: ``PeerError`` when python3 or `websockets` is missing, or what starting it throws.
  package static func python(_ script: String, _ arguments: [String] = []) async throws
    -> PeerProcess
  {
    try await python(peersDirectory.appendingPathComponent(script), arguments)
  }
}
