import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes to stdout and stderr without crashing when the reader has gone away.
///
/// `FileHandle.write(_:)` traps on `EPIPE` (for example `serverbee watch | head -1`); these
/// writes never trap. A closed stdout ends the process quietly, as a pipeline expects; a failed
/// stderr write is ignored.
enum StandardStream {
  /// Writes text to stdout; exits with status 0 when stdout is closed.
  static func out(_ text: String) {
    do {
      try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
    } catch {
      exit(0)
    }
  }

  /// Writes text to stderr, ignoring failures.
  static func err(_ text: String) {
    try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
  }
}
