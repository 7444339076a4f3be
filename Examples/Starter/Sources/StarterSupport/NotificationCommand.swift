import Foundation

/// The user's command that shows a notification (`notify-send`, a chat bot's script…), run with
/// the notification's title and body as its two last arguments: a program and arguments, never
/// a shell string, so nothing in a title is ever interpreted.
///
/// The command may ask to open the notification by printing a line `open`, which is what
/// `notify-send --action=open=Open --wait` prints when the notification is clicked.
///
/// ```swift
/// let command = try NotificationCommand(["notify-send", "--app-name=ServerBee", "--"])
/// let result = try await command.run(title: "High CPU", body: "on web-1")
/// ```
public struct NotificationCommand: Sendable {
  /// The program (looked up on `PATH`) and its own arguments.
  public let arguments: [String]

  /// Checks that there is a program.
  /// - Parameter arguments: The program and its arguments.
  /// - Throws: ``StarterError`` when `arguments` is empty.
  public init(_ arguments: [String]) throws {
    guard let program = arguments.first, !program.isEmpty else {
      throw StarterError(usage: "give the command to run after --, for example -- notify-send")
    }
    self.arguments = arguments
  }

  /// Runs the command to its end, on a thread of its own (it may wait for a click).
  /// - Parameters:
  ///   - title: The notification title.
  ///   - body: The notification body.
  /// - Returns: The exit status, and whether the command printed a line `open`.
  /// - Throws: An error when the program cannot start.
  public func run(title: String, body: String) async throws -> (status: Int32, opens: Bool) {
    let process = Process()
    // `env` finds the program on PATH and passes every argument as it is: no shell.
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments + [title, body]
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return await withCheckedContinuation { continuation in
      Thread {
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: printed, as: UTF8.self).split(whereSeparator: \.isNewline)
        continuation.resume(
          returning: (process.terminationStatus, lines.contains { $0 == "open" }))
      }.start()
    }
  }
}
