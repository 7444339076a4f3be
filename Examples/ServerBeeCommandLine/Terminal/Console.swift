import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes: results on stdout, progress and notes on stderr.
///
/// With `--json`, stdout carries JSON only; everything for people goes to stderr.
struct Console: Sendable {
  /// Whether stdout is a terminal (live redraws, colours).
  var stdoutIsTerminal: Bool
  /// Whether stderr is a terminal (spinners).
  var stderrIsTerminal: Bool
  /// Whether stdin is a terminal (prompts).
  var stdinIsTerminal: Bool
  /// Whether `--json` was given.
  var json: Bool
  /// Whether output may be coloured (``colors(stdoutIsTerminal:environment:)``).
  var colors = false

  /// The console of this process.
  /// - Parameters:
  ///   - json: Whether `--json` was given.
  ///   - environment: The process environment (`NO_COLOR`).
  /// - Returns: The console.
  static func process(json: Bool, environment: [String: String]) -> Console {
    let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    return Console(
      stdoutIsTerminal: stdoutIsTerminal, stderrIsTerminal: isatty(STDERR_FILENO) == 1,
      stdinIsTerminal: isatty(STDIN_FILENO) == 1, json: json,
      colors: colors(stdoutIsTerminal: stdoutIsTerminal, environment: environment))
  }

  /// Whether to colour: only on a terminal, and never when `NO_COLOR` is set to anything
  /// non-empty (https://no-color.org). Cursor movement (redraws, spinners) is not colour and
  /// follows the terminal alone.
  static func colors(stdoutIsTerminal: Bool, environment: [String: String]) -> Bool {
    stdoutIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty
  }

  /// `text` in bold when colour is on, else as it is.
  func bold(_ text: String) -> String {
    colors ? "\u{1B}[1m\(text)\u{1B}[0m" : text
  }

  /// The width of the terminal on stdout in columns, or `nil` when it is not a terminal.
  var terminalColumns: Int? {
    guard stdoutIsTerminal else { return nil }
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// Writes text to stdout as it is.
  func write(_ text: String) {
    StandardStream.out(text)
  }

  /// Writes one line of results to stdout.
  func line(_ text: String = "") { write(text + "\n") }

  /// Writes one line to stderr.
  func error(_ text: String) {
    StandardStream.err((text + "\n"))
  }

  /// Writes a JSON document (already encoded) as one line on stdout.
  func json(_ data: Data) {
    write(String(decoding: data, as: UTF8.self) + "\n")
  }
}
