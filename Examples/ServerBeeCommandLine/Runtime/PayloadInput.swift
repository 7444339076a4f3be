import Foundation
import ServerBeeModels

/// Reads the APNs payload that `push decrypt` and `open` take: a file, or `-` for stdin.
enum PayloadInput {
  /// The payload bytes of `source`.
  /// - Parameter source: A file path, or `-` for stdin.
  /// - Returns: The bytes, as they are (the SDK decides whether they are usable).
  /// - Throws: ``CommandLineError`` with `.usage` when the file cannot be read.
  static func read(_ source: String) throws -> Data {
    if source == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
    do {
      // A handle, not Data(contentsOf:), so devices and pipes (/dev/stdin, <(…)) read too.
      let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: source))
      defer { try? handle.close() }
      return try handle.readToEnd() ?? Data()
    } catch {
      throw CommandLineError(.usage, "cannot read '\(source)'")
    }
  }
}
