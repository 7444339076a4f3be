// ServerBeeTestHarness: this repository's own test machinery (child processes under a
// watchdog, PKI made with `openssl`, Python and raw-socket peers, temporary directories).
// Package-only, never a product: integrators' fakes are the public ServerBeeTestSupport.
package import Foundation

/// Creates and removes a fresh temporary directory for one test.
package struct TemporaryDirectory: ~Copyable {
  /// The directory.
  package let url: URL

  /// Creates a new, empty directory under the system temporary directory.
  package init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("serverbeekit-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}
