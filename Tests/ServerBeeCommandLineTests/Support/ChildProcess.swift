import Foundation
import ServerBeeTestHarness

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The outcome of one finished `serverbee` run.
struct RunResult: Sendable {
  var status: Int32
  var stdout: String
  var stderr: String

  /// The non-empty lines of stderr.
  var stderrLines: [Substring] { stderr.split(separator: "\n") }
}

/// Runs child processes for the end-to-end tests, with output in files (no pipe can fill up),
/// under the test watchdog in a process group of their own, and a kill of the group after a
/// deadline.
enum ChildProcess {
  struct TimedOut: Error, CustomStringConvertible {
    let description: String
  }

  /// Runs `executable` to completion.
  /// - Parameters:
  ///   - executable: The program.
  ///   - arguments: Its arguments.
  ///   - directory: Where stdout and stderr files are written.
  ///   - timeout: Seconds before the process is killed and the call fails.
  ///   - environment: Variables added to this process's environment for the child.
  ///   - input: A file to read stdin from; none (`/dev/null`) by default.
  /// - Returns: The exit status and the output.
  /// - Throws: ``TimedOut``, or an error when the process cannot start.
  static func run(
    _ executable: URL, _ arguments: [String], scratch directory: URL, timeout: Double = 60,
    environment: [String: String] = [:], input: URL? = nil
  ) async throws -> RunResult {
    let name = UUID().uuidString
    let outURL = directory.appendingPathComponent("\(name).out")
    let errURL = directory.appendingPathComponent("\(name).err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    defer {
      try? out.close()
      try? err.close()
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.standardOutput = out
    process.standardError = err
    let stdin = try input.map { try FileHandle(forReadingFrom: $0) }
    defer { try? stdin?.close() }
    process.standardInput = stdin ?? FileHandle.nullDevice
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let finished = AsyncStream<Void>.makeStream()
    process.terminationHandler = { _ in finished.continuation.yield() }
    try process.runUnderWatchdog()
    let timedOut = try await withThrowingTaskGroup(of: Bool.self) { group in
      group.addTask {
        for await _ in finished.stream { return false }
        return false
      }
      group.addTask {
        try await Task.sleep(for: .seconds(timeout))
        return true
      }
      defer { group.cancelAll() }
      return try await group.next() ?? true
    }
    if timedOut {
      process.signalGroup(SIGKILL)
      await process.exited()
      throw TimedOut(
        description: "\(executable.lastPathComponent) \(arguments) took > \(timeout) s")
    }
    await process.exited()
    return RunResult(
      status: process.terminationStatus,
      stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
      stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
  }
}
