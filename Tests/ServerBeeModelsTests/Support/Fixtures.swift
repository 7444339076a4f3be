import Foundation
import ServerBeeModels

/// Loads the JSON samples under `Tests/ServerBeeModelsTests/Fixtures/`.
///
/// `Package.swift` declares `resources: [.copy("Fixtures")]`, so the folder is copied whole into
/// the test resource bundle: `Bundle.module.resourceURL/Fixtures/<area>/<file>` on Linux and on
/// Apple platforms alike. Paths are relative to `Fixtures/`, for example
/// `"realtime/full_sync_empty.json"`.
enum Fixtures {
  /// A fixture is missing from the resource bundle.
  struct Missing: Error, CustomStringConvertible {
    /// The path asked for.
    var path: String
    var description: String { "fixture not found: Fixtures/\(path)" }
  }

  /// The file's bytes with trailing newlines removed (fixtures are written like server bodies,
  /// which have none).
  static func data(_ path: String) throws -> Data {
    guard let base = Bundle.module.resourceURL else { throw Missing(path: path) }
    let url = base.appendingPathComponent("Fixtures").appendingPathComponent(path)
    guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(path: path) }
    var data = try Data(contentsOf: url)
    while let last = data.last, last == 0x0A || last == 0x0D { data.removeLast() }
    return data
  }

  /// The file as text, trailing newlines removed.
  static func text(_ path: String) throws -> String {
    String(decoding: try data(path), as: UTF8.self)
  }

  /// The non-empty lines of a `.jsonl` file, one frame each.
  static func lines(_ path: String) throws -> [String] {
    try text(path).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
  }

  /// Decodes `T` from the fixture and encodes it back with `WireJSON`, for byte-exact
  /// round-trip checks.
  static func reencoded<T: Codable>(_ type: T.Type, _ path: String) throws -> String {
    try reencoded(type, text: text(path))
  }

  /// Decodes `T` from JSON text and encodes it back with `WireJSON`.
  static func reencoded<T: Codable>(_ type: T.Type, text: String) throws -> String {
    let value = try WireJSON.decode(type, from: Data(text.utf8))
    return String(decoding: try WireJSON.encode(value), as: UTF8.self)
  }
}
