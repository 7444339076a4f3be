package import Foundation

extension PeerProcess {
  /// How long a test lets a Python peer (and itself) take over any one step of an exchange
  /// (an opening handshake, a close handshake) before calling the test broken: 2 minutes, the
  /// `PATIENCE` of the peer scripts in `Tests/Peers`.
  ///
  /// A loaded machine can keep either process off the CPU for many seconds, so a test waits
  /// for the peer's next event rather than for a deadline of a few seconds: only a broken test
  /// runs into this one, and each suite's 5-minute time limit bounds it anyway.
  package static let patience: Duration = .seconds(120)

  /// Waits, polling every 10 ms, until `condition` holds or ``patience`` has passed: for states
  /// a test cannot be told about (a peer's log line, a counter on another thread).
  ///
  /// ```swift
  /// let reached = try await PeerProcess.waitUntil { connection.pingsAcknowledged >= 1 }
  /// #expect(reached)
  /// ```
  /// - Parameter condition: The state to wait for.
  /// - Returns: Whether it held before the patience ran out.
  /// - Throws: `CancellationError` when the test is cancelled.
  package static func waitUntil(_ condition: () throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + patience
    while try !condition() {
      guard ContinuousClock.now < deadline else { return false }
      try await Task.sleep(for: .milliseconds(10))
    }
    return true
  }

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

  /// Starts a Python peer script from `Tests/Peers` that needs the `h2` and `cryptography`
  /// packages (the mock APNs, `apns_peer.py`), failing clearly when either is missing.
  /// - Parameters:
  ///   - script: The script's file name.
  ///   - arguments: Its command-line arguments.
  /// - Returns: The running peer.
  /// - Throws: ``PeerError`` when python3, `h2` or `cryptography` is missing, or what starting
  ///   it throws.
  package static func pythonHTTP2(_ script: String, _ arguments: [String] = []) async throws
    -> PeerProcess
  {
    let check = try PeerProcess("python3", ["-c", "import h2, cryptography"])
    if await check.finish().status != 0 {
      throw PeerError(
        "python3 cannot import h2 and cryptography: run scripts/bootstrap.sh "
          + "(python3 -m pip install h2 cryptography)")
    }
    return try PeerProcess(
      "python3", [peersDirectory.appendingPathComponent(script).path] + arguments)
  }
}
