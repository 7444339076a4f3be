import Foundation
import ServerBeeTestSupport

/// Runs the built `serverbee` with `--home home` and `arguments`, in the directory above
/// `home`; the deadline only ends a broken test.
func serverbee(
  _ arguments: [String], home: URL, timeout: Double = 120, environment: [String: String] = [:]
) async throws -> RunResult {
  try await ChildProcess.run(
    try BuiltExecutables.url("serverbee"), ["--home", home.path] + arguments,
    scratch: home.deletingLastPathComponent(), timeout: timeout, environment: environment)
}
