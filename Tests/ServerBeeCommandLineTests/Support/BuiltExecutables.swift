import Foundation
import ServerBeeTestHarness

/// Finds the `serverbee` and `serverbee-simulator` executables of the same build as this test
/// bundle (`swift build` and `swift test` put them next to it, in `.build/<configuration>`).
enum BuiltExecutables {
  struct Missing: Error, CustomStringConvertible {
    let description: String
  }

  /// The directory holding the executables.
  static func directory() throws -> URL {
    let simulator = try BuiltExecutable.url("serverbee-simulator")
    let directory = simulator.deletingLastPathComponent()
    guard
      FileManager.default.isExecutableFile(
        atPath: directory.appendingPathComponent("serverbee").path)
    else {
      throw Missing(
        description: "serverbee is not built next to serverbee-simulator (run `swift build`)")
    }
    return directory
  }

  /// The URL of one executable.
  static func url(_ name: String) throws -> URL {
    try directory().appendingPathComponent(name)
  }
}
