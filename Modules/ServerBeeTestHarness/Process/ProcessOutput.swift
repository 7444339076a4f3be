package import Foundation

/// How a child process ended and everything it wrote.
package struct ProcessOutput: Sendable {
  /// The exit status, or the signal number when ``reason`` is `.uncaughtSignal`.
  package var status: Int32
  /// Whether it exited or was killed by a signal.
  package var reason: Process.TerminationReason
  /// Everything it wrote on standard output.
  package var stdout: Data
  /// Everything it wrote on standard error.
  package var stderr: Data

  /// Standard output as UTF-8 text.
  package var text: String { String(decoding: stdout, as: UTF8.self) }
  /// Standard error as UTF-8 text.
  package var errorText: String { String(decoding: stderr, as: UTF8.self) }
}

extension Process {
  /// Waits for the process to end on a thread of its own (see ``offPool(_:)``), never parking a
  /// thread of the cooperative pool.
  package func exited() async {
    _ = try? await offPool { [self] in waitUntilExit() }
  }

  /// Runs `executable` to completion and collects both outputs, every blocking read and wait
  /// on threads of their own.
  ///
  /// ```swift
  /// let result = try await Process.output(of: zbarimg, ["--raw", "-q", file.path])
  /// ```
  /// - Parameters:
  ///   - executable: The program.
  ///   - arguments: Its arguments.
  ///   - input: Bytes written to its standard input, which is then closed; no input means
  ///     `/dev/null`.
  ///   - environment: Its whole environment; this process's by default.
  /// - Returns: The exit status and both outputs.
  /// - Throws: An error when the process cannot start or the input cannot be written.
  package static func output(
    of executable: URL, _ arguments: [String], input: Data? = nil,
    environment: [String: String]? = nil
  ) async throws -> ProcessOutput {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let stdout = Pipe()
    let stderr = Pipe()
    let stdin = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    try process.run()
    async let errors = offPool { stderr.fileHandleForReading.readDataToEndOfFile() }
    async let output = offPool { stdout.fileHandleForReading.readDataToEndOfFile() }
    if let input {
      try await offPool {
        defer { try? stdin.fileHandleForWriting.close() }
        try stdin.fileHandleForWriting.write(contentsOf: input)
      }
    }
    let (out, err) = try await (output, errors)
    await process.exited()
    return ProcessOutput(
      status: process.terminationStatus, reason: process.terminationReason, stdout: out,
      stderr: err)
  }
}
