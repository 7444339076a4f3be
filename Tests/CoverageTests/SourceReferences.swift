import Foundation

/// Where the SDK's sources send each catalogue route: every `RouteCatalogue.<Area>.<name>` in
/// a module other than the catalogue itself, the simulator and the test support, with the
/// function it stands in.
enum SourceReferences {
  struct Sender: Hashable, Comparable {
    var module: String
    var function: String

    static func < (lhs: Sender, rhs: Sender) -> Bool {
      (lhs.module, lhs.function) < (rhs.module, rhs.function)
    }
  }

  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../..").standardized

  /// Modules whose references are not the SDK sending a route.
  static let notSenders: Set<String> = [
    "ServerBeeRoutes", "ServerBeeSimulator", "ServerBeeTestSupport", "ServerBeeTestHarness",
  ]

  /// Route name → the SDK functions that send it.
  static func senders() throws -> [String: Set<Sender>] {
    let modules = repository.appendingPathComponent("Modules")
    var found: [String: Set<Sender>] = [:]
    let reference = #/RouteCatalogue\.[A-Z]\w*\.(\w+)/#
    for module in try FileManager.default.contentsOfDirectory(atPath: modules.path).sorted()
    where !notSenders.contains(module) {
      let root = modules.appendingPathComponent(module)
      guard let files = FileManager.default.enumerator(atPath: root.path) else { continue }
      for case let file as String in files where file.hasSuffix(".swift") {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        for match in text.matches(of: reference) {
          let line = text[..<match.range.lowerBound].split(separator: "\n").last ?? ""
          if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
          let function = enclosingFunction(in: text[..<match.range.lowerBound]) ?? "—"
          found[String(match.1), default: []].insert(Sender(module: module, function: function))
        }
      }
    }
    return found
  }

  /// `name(label:label:)` of the last `func` declared before the end of `text`.
  static func enclosingFunction(in text: Substring) -> String? {
    guard let start = text.ranges(of: "func ").last?.upperBound else { return nil }
    let rest = text[start...]
    guard let open = rest.firstIndex(where: { $0 == "(" || $0 == "<" }) else { return nil }
    let name = rest[..<open]
    guard let parameters = rest[open...].firstIndex(of: "(") else { return nil }
    var depth = 0
    var labels: [String] = []
    var current = ""
    for character in rest[parameters...] {
      switch character {
      case "(", "[", "<":
        depth += 1
        if depth > 1 { current.append(character) }
      case ")", "]", ">":
        depth -= 1
        if depth == 0 {
          labels.append(current)
          break
        }
        current.append(character)
      case "," where depth == 1:
        labels.append(current)
        current = ""
      default: current.append(character)
      }
      if depth == 0 { break }
    }
    let names = labels.compactMap { parameter -> String? in
      let head = parameter.split(separator: ":").first?.trimmingCharacters(
        in: .whitespacesAndNewlines)
      guard let head, !head.isEmpty else { return nil }
      return String(head.split(separator: " ").first ?? "") + ":"
    }
    return "\(name)(\(names.joined()))"
  }
}
