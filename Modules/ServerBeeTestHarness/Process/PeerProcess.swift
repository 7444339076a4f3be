package import Foundation

/// A helper process (Python peer, `openssl s_server`) started by one test and stopped when the
/// value goes away. Missing tools fail the test with a clear message; they are never skipped.
package final class PeerProcess: @unchecked Sendable {
  // @unchecked: `process` and the pipes are set once in init and only read afterwards.
  package let process = Process()
  private let stdout = Pipe()
  private let stderr = Pipe()

  /// Starts `executable arguments`, resolving the executable on PATH.
  ///
  /// The peer runs under the test watchdog (`Process.runUnderWatchdog()`), in a process group
  /// of its own that ends when the value goes away (`Process.endGroup(grace:)`); when this test
  /// process dies without releasing it (a crash, a test binary that exits before every value
  /// is released), the watchdog sees its parent change and ends the peer, so no
  /// `openssl s_server` or Python peer is left running with parent 1.
  package init(_ executable: String, _ arguments: [String], directory: URL? = nil) throws {
    process.executableURL = URL(fileURLWithPath: try Self.which(executable))
    process.arguments = arguments
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    if let directory { process.currentDirectoryURL = directory }
    try process.runUnderWatchdog()
  }

  /// Starts a Python peer script after checking that `websockets` imports.
  package static func python(
    _ script: URL, _ arguments: [String] = []
  ) async throws -> PeerProcess {
    try await requirePythonWebsockets()
    return try PeerProcess("python3", [script.path] + arguments)
  }

  /// Fails clearly when python3 or its `websockets` package is missing.
  package static func requirePythonWebsockets() async throws {
    let check = try PeerProcess("python3", ["-c", "import websockets"])
    if await check.finish().status != 0 {
      throw PeerError(
        "python3 cannot import websockets: run scripts/bootstrap.sh "
          + "(python3 -m pip install websockets)")
    }
  }

  /// Reads the first stdout line: the port the peer bound.
  package func port() async throws -> UInt16 {
    let line = try await readLine()
    guard let port = UInt16(line.trimmingCharacters(in: .whitespaces)) else {
      throw PeerError(
        "peer printed \(line.debugDescription) instead of a port; stderr: \(await errors())")
    }
    return port
  }

  /// Reads one line from stdout.
  package func readLine() async throws -> String {
    try await offPool { try self.readLineBlocking() }
  }

  private func readLineBlocking() throws -> String {
    var bytes: [UInt8] = []
    let handle = stdout.fileHandleForReading
    while true {
      let chunk = handle.readData(ofLength: 1)
      guard let byte = chunk.first else {
        throw PeerError("peer exited before printing a line; stderr: \(errorsBlocking())")
      }
      if byte == UInt8(ascii: "\n") { break }
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Waits for the process to exit and returns its stdout remainder.
  package func finish() async -> (status: Int32, output: String) {
    (try? await offPool { self.finishBlocking() }) ?? (-1, "")
  }

  private func finishBlocking() -> (status: Int32, output: String) {
    let data = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// What the peer wrote on stderr so far (only after it exited, to avoid blocking).
  package func errors() async -> String {
    (try? await offPool { self.errorsBlocking() }) ?? ""
  }

  private func errorsBlocking() -> String {
    guard !process.isRunning else { return "(still running)" }
    return String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  deinit { process.endGroup() }

  package static func which(_ name: String) throws -> String {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
      .split(separator: ":")
    for directory in paths {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw PeerError("\(name) is not on PATH: run scripts/bootstrap.sh")
  }
}

/// A failure to set up a test peer.
package struct PeerError: Error, CustomStringConvertible {
  package let description: String
  package init(_ description: String) { self.description = description }
}
