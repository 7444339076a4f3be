package import Foundation

/// Finds an executable of the same build as the running test bundle: `swift build` and
/// `swift test` put both in `.build/<configuration>`.
///
/// ```swift
/// let relay = try BuiltExecutable.url("serverbee-relay")
/// ```
package enum BuiltExecutable {
  /// The executable named `name` next to this test bundle.
  /// - Parameter name: The product name, for example `serverbee-simulator`.
  /// - Returns: Its file URL.
  /// - Throws: ``PeerError`` naming the directories searched when it is not built.
  package static func url(_ name: String) throws -> URL {
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
      let path = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: path.path) { return path }
    }
    throw PeerError(
      "\(name) is not built next to the test bundle (run `swift build` first); looked in "
        + candidates.map(\.path).joined(separator: ", "))
  }
}
