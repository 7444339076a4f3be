import Foundation
import ServerBeeTestHarness

/// Runs a command under `script(1)` (util-linux, part of every Debian), so it has a real
/// terminal, and types answers only after their prompt appeared (so the terminal's echo setting
/// at that moment is what the transcript shows).
enum PseudoTerminal {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Runs `command` (already shell-quoted) in a terminal and answers prompts.
  /// - Parameters:
  ///   - command: The shell command line.
  ///   - answers: For each prompt text, in order, the line to type.
  ///   - timeout: Seconds before the run counts as hung.
  /// - Returns: The exit status and everything the terminal showed.
  /// - Throws: ``Failure`` when a prompt does not appear or the run hangs.
  static func run(
    _ command: String, answers: [(prompt: String, line: String)], timeout: Double = 120
  ) async throws -> (status: Int32, transcript: String) {
    try await offPool { try runBlocking(command, answers: answers, timeout: timeout) }
  }

  private static func runBlocking(
    _ command: String, answers: [(prompt: String, line: String)], timeout: Double
  ) throws -> (status: Int32, transcript: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-qefc", command, "/dev/null"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    try process.run()
    defer {
      process.endGroup()
      process.waitUntilExit()
    }
    var transcript = Data()
    let deadline = Date().addingTimeInterval(timeout)
    for answer in answers {
      while !String(decoding: transcript, as: UTF8.self).contains(answer.prompt) {
        guard let chunk = output.read(until: deadline), !chunk.isEmpty else {
          let shown = String(decoding: transcript, as: UTF8.self)
          throw Failure(description: "no prompt '\(answer.prompt)' in: \(shown)")
        }
        transcript.append(chunk)
      }
      transcript.removeAll()  // only what comes after the prompt matters from here on
      try input.fileHandleForWriting.write(contentsOf: Data((answer.line + "\n").utf8))
    }
    while true {
      guard let chunk = output.read(until: deadline) else {
        throw Failure(description: "\(command) hung")
      }
      if chunk.isEmpty { break }
      transcript.append(chunk)
    }
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: transcript, as: UTF8.self))
  }
}
