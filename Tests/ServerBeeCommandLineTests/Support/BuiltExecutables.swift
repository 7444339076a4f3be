import Foundation

/// Finds the `serverbee` and `serverbee-simulator` executables of the same build as this test
/// bundle (`swift build` and `swift test` put them next to it, in `.build/<configuration>`).
enum BuiltExecutables {
  struct Missing: Error, CustomStringConvertible {
    let description: String
  }

  /// The directory holding the executables.
  static func directory() throws -> URL {
    var candidates: [URL] = []
    for url in [Bundle.main.executableURL, Bundle.main.bundleURL]
      + Bundle.allBundles.map(\.bundleURL)
    {
      guard var directory = url?.deletingLastPathComponent() else { continue }
      for _ in 0..<4 {
        candidates.append(directory)
        directory = directory.deletingLastPathComponent()
      }
    }
    for directory in candidates {
      let path = directory.appendingPathComponent("serverbee-simulator").path
      if FileManager.default.isExecutableFile(atPath: path)
        && FileManager.default.isExecutableFile(
          atPath: directory.appendingPathComponent("serverbee").path)
      {
        return directory
      }
    }
    throw Missing(
      description: "serverbee and serverbee-simulator are not built next to the test bundle "
        + "(run `swift build` first); looked in \(candidates.map(\.path))")
  }

  /// The URL of one executable.
  static func url(_ name: String) throws -> URL {
    try directory().appendingPathComponent(name)
  }
}
