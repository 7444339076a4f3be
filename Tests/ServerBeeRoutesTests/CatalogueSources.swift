import Foundation

/// Reads the catalogue's source files: the names given to `APIRoute(…)` declarations.
enum CatalogueSources {
  static func declaredRouteNames() throws -> [String] {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Modules/ServerBeeRoutes").standardized
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix("RouteCatalogue+") && $0.hasSuffix(".swift") }
    var names: [String] = []
    for file in files {
      let text = try String(
        contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
      // `APIRoute<…>(\n  "name", .method, …`: the first string literal after the generic
      // arguments' closing parenthesis opening.
      var rest = text[...]
      while let range = rest.range(of: "APIRoute<") {
        rest = rest[range.upperBound...]
        guard let open = rest.range(of: ">(") else { break }
        let after = rest[open.upperBound...].drop { $0 == " " || $0 == "\n" }
        guard after.first == "\"", let close = after.dropFirst().firstIndex(of: "\"") else {
          continue
        }
        names.append(String(after[after.index(after: after.startIndex)..<close]))
      }
    }
    return names
  }
}
