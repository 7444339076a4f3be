import Foundation

/// Reads the catalogue's source files: each `static let property = APIRoute<…>("name", …)`.
enum CatalogueSources {
  struct Declaration: Hashable {
    var property: String
    var name: String
  }

  static func declarations() throws -> [Declaration] {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Modules/ServerBeeRoutes").standardized
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix("RouteCatalogue+") && $0.hasSuffix(".swift") }
    let declaration = #/static let (\w+)\s*=\s*APIRoute<[^>]*>\(\s*"(\w+)"/#
    var found: [Declaration] = []
    for file in files {
      let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
      for match in text.matches(of: declaration) {
        found.append(Declaration(property: String(match.1), name: String(match.2)))
      }
    }
    return found
  }
}
