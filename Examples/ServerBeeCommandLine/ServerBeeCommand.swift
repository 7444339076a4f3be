import Foundation

/// The entry point of the `serverbee` command line.
public enum ServerBeeCommand {
  /// Runs one command and returns the process exit code.
  /// - Parameter arguments: The arguments after the program name.
  /// - Returns: 0 on success, 64 for usage errors, 1 for other failures.
  public static func main(_ arguments: [String]) async -> Int32 {
    FileHandle.standardError.write(Data("serverbee: not available yet\n".utf8))
    return 1
  }
}
