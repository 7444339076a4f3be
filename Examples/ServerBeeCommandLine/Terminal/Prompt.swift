import Foundation
import ServerBeeModels

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Asks for missing values on the terminal; never echoes secrets.
enum Prompt {
  /// Reads one line after showing `label` on stderr.
  /// - Returns: The line without its newline, or `nil` at end of input.
  static func line(_ label: String) -> String? {
    StandardStream.err("\(label): ")
    return readLine(strippingNewline: true)
  }

  /// Reads a secret without echo (the terminal's echo is switched off while typing).
  ///
  /// Echo goes off before the prompt appears and nothing typed is discarded (`TCSANOW`, not
  /// `TCSAFLUSH`), so an answer typed or pasted right after the prompt is neither shown nor lost.
  /// - Returns: The text, or `nil` at end of input.
  static func secret(_ label: String) -> String? {
    var saved = termios()
    let hasTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
    if hasTerminal {
      var silent = saved
      silent.c_lflag &= ~tcflag_t(ECHO)
      _ = tcsetattr(STDIN_FILENO, TCSANOW, &silent)
    }
    defer {
      if hasTerminal {
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        StandardStream.err("\n")
      }
    }
    StandardStream.err("\(label): ")
    return readLine(strippingNewline: true)
  }

  /// A value given on the command line, else prompted for on a terminal, else a usage error.
  /// - Parameters:
  ///   - given: The value from the command line.
  ///   - option: The option's name, for the error.
  ///   - label: The prompt.
  ///   - secret: Whether to read without echo.
  ///   - console: Tells whether stdin is a terminal.
  /// - Returns: The non-empty value.
  /// - Throws: ``CommandLineError`` with `.usage` when it is missing and cannot be asked for.
  static func value(
    _ given: String?, option: String, label: String, secret: Bool = false, console: Console
  ) throws -> String {
    if let given, !given.isEmpty { return given }
    guard console.stdinIsTerminal else {
      throw CommandLineError(.usage, "missing --\(option) (no terminal to ask on)")
    }
    let answer = secret ? Self.secret(label) : line(label)
    guard let answer, !answer.isEmpty else {
      throw CommandLineError(.usage, "missing --\(option)")
    }
    return answer
  }
}
