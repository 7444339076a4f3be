import Foundation

/// The kind of a JSON value as the protocol distinguishes it: strings are split by the time
/// format they carry (Protocol/README.md §7, Protocol/AppRoutes.md §1) and `*_json` strings that
/// hold JSON.
enum WireKind: String, Hashable, Comparable, CustomStringConvertible {
  case null, bool, number, array, object
  /// RFC 3339 with `Z` (`tsZ`).
  case timeZ = "time(Z)"
  /// RFC 3339 with `+00:00` (`ts+0`).
  case timeUTCOffset = "time(+00:00)"
  /// RFC 3339 with another offset (never documented).
  case timeOtherOffset = "time(other offset)"
  /// `YYYY-MM-DD`.
  case date
  /// A `*_json` string holding a JSON array or object.
  case jsonText = "json-in-string"
  /// Any other string.
  case text = "string"

  var description: String { rawValue }
  static func < (lhs: WireKind, rhs: WireKind) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Whether `text` is `pattern`, where `9` stands for any ASCII digit.
  private static func fits(_ text: Substring, _ pattern: String) -> Bool {
    text.utf8.count == pattern.utf8.count
      && zip(text.utf8, pattern.utf8).allSatisfy { character, expected in
        expected == UInt8(ascii: "9") ? (0x30...0x39).contains(character) : character == expected
      }
  }

  /// RFC 3339 date-time: `9999-99-99T99:99:99`, an optional fraction of 1 to 9 digits, then
  /// `Z` or `±99:99`; the zone, or `nil` when `text` is no such time.
  private static func timeZone(_ text: String) -> Substring? {
    let head = text.prefix(19)
    guard fits(head, "9999-99-99T99:99:99") else { return nil }
    var rest = text.dropFirst(19)
    if rest.first == "." {
      let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
      guard (1...9).contains(digits.count) else { return nil }
      rest = rest.dropFirst(1 + digits.count)
    }
    if rest == "Z" { return rest }
    guard let sign = rest.first, sign == "+" || sign == "-", fits(rest.dropFirst(), "99:99")
    else { return nil }
    return rest
  }

  /// The kind of `value`, the member `key` of its object (`nil` for array elements and roots).
  init(_ value: OrderedJSON, key: String?) {
    switch value {
    case .null: self = .null
    case .bool: self = .bool
    case .number: self = .number
    case .array: self = .array
    case .object: self = .object
    case .string(let text):
      if let zone = Self.timeZone(text) {
        if zone == "Z" {
          self = .timeZ
        } else if zone == "+00:00" {
          self = .timeUTCOffset
        } else {
          self = .timeOtherOffset
        }
      } else if Self.fits(text[...], "9999-99-99") {
        self = .date
      } else if let key, key.hasSuffix("_json"), let inner = try? OrderedJSON.parse(text),
        inner.elements != nil || !inner.keys.isEmpty || inner == .object([])
      {
        self = .jsonText
      } else {
        self = .text
      }
    }
  }
}

/// How a fixture's shape is checked (beyond the key sets and kinds, which always are).
struct ShapeRules {
  /// Whether the documents fix the key order of the fixture's objects (then it is checked at
  /// every level).
  var orderFixed: Bool
  /// Array paths (indices dropped, for example `items`) that must have elements although one
  /// example shows them empty (an empty list proves nothing).
  var mustHaveElements: Set<String> = []
  /// Object paths (indices dropped, for example `containers.labels`) that are maps with free
  /// keys (Docker's labels): only their values are compared, with every value of the examples'.
  var maps: Set<String> = []
}

/// Compares an answer with the documented examples of its shape.
///
/// Several examples may document one shape (for instance a firing and a resolved alert, or
/// the elements of a list): a key present in every example is required, a key present in some
/// is allowed (the documents' "omitted if none"), and a member may have any kind one of the
/// examples shows (so `T|null` is documented by one example with `T` and one with `null`).
/// Objects carrying a `kind` (security evidence) are compared with the examples of the same
/// `kind`.
enum WireShape {
  /// Every mismatch between `actual` and `examples`, each naming the path and the key.
  static func mismatches(
    _ actual: OrderedJSON, examples: [OrderedJSON], path: String = "data", key: String? = nil,
    rules: ShapeRules
  ) -> [String] {
    let allowed = Set(examples.map { WireKind($0, key: key) })
    let kind = WireKind(actual, key: key)
    guard allowed.contains(kind) else {
      return [
        "\(path): \(kind) where the fixture has \(allowed.sorted().map(\.description).joined(separator: "|"))"
      ]
    }
    switch actual {
    case .object(let members) where rules.maps.contains(bare(path)):
      let values = examples.flatMap { example -> [OrderedJSON] in
        guard case .object(let exampleMembers) = example else { return [] }
        return exampleMembers.map(\.value)
      }
      if !members.isEmpty, values.isEmpty {
        return ["\(path): the fixture has no entry to compare with"]
      }
      return members.flatMap {
        mismatches($0.value, examples: values, path: "\(path).\($0.key)", rules: rules)
      }
    case .object(let members):
      var objects = examples.filter { if case .object = $0 { true } else { false } }
      if let variant = actual["kind"]?.stringValue, objects.contains(where: { $0["kind"] != nil }) {
        objects = objects.filter { $0["kind"]?.stringValue == variant }
        if objects.isEmpty { return ["\(path): kind '\(variant)' has no example in the fixture"] }
      }
      return objectMismatches(members, objects: objects, path: path, rules: rules)
    case .array(let elements):
      let exampleElements = examples.compactMap(\.elements).flatMap { $0 }
      let shownEmpty = examples.contains { $0.elements?.isEmpty == true }
      var problems: [String] = []
      if elements.isEmpty, !shownEmpty || rules.mustHaveElements.contains(bare(path)) {
        problems.append("\(path): an empty list (seed it: an empty list proves nothing)")
      }
      if !elements.isEmpty, exampleElements.isEmpty {
        problems.append("\(path): the fixture has no element to compare with")
        return problems
      }
      for (index, element) in elements.enumerated() {
        problems += mismatches(
          element, examples: exampleElements, path: "\(path)[\(index)]", rules: rules)
      }
      return problems
    default:
      return []
    }
  }

  private static func objectMismatches(
    _ members: [(key: String, value: OrderedJSON)], objects: [OrderedJSON], path: String,
    rules: ShapeRules
  ) -> [String] {
    let keySets = objects.map { Set($0.keys) }
    let required = keySets.dropFirst().reduce(keySets.first ?? []) { $0.intersection($1) }
    let allowed = keySets.reduce(Set<String>()) { $0.union($1) }
    let actualKeys = members.map(\.key)
    var problems: [String] = []
    for key in required.sorted() where !actualKeys.contains(key) {
      problems.append("\(path): missing key '\(key)'")
    }
    for key in actualKeys where !allowed.contains(key) {
      problems.append("\(path): extra key '\(key)' (not in the fixture)")
    }
    if rules.orderFixed {
      let reference = documentedOrder(objects)
      let known = actualKeys.filter { reference.contains($0) }
      let expected = reference.filter { known.contains($0) }
      if known != expected {
        problems.append(
          "\(path): keys out of the documented order: [\(known.joined(separator: ","))], "
            + "documented [\(expected.joined(separator: ","))]")
      }
    }
    for member in members where allowed.contains(member.key) {
      problems += mismatches(
        member.value, examples: objects.compactMap { $0[member.key] },
        path: "\(path).\(member.key)", key: member.key, rules: rules)
    }
    return problems
  }

  /// The key order the examples show: the longest example's, with keys only others have
  /// inserted after their predecessor.
  private static func documentedOrder(_ objects: [OrderedJSON]) -> [String] {
    var order = objects.max { $0.keys.count < $1.keys.count }?.keys ?? []
    for object in objects {
      var previous: String?
      for key in object.keys {
        if !order.contains(key) {
          let at = previous.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
          order.insert(key, at: at)
        }
        previous = key
      }
    }
    return order
  }

  /// `data.items[3].evidence` → `items.evidence`: the path without the root and indices.
  static func bare(_ path: String) -> String {
    var text = path
    while let open = text.firstIndex(of: "["), let close = text[open...].firstIndex(of: "]") {
      text.removeSubrange(open...close)
    }
    return text == "data" ? "" : String(text.dropFirst("data.".count))
  }
}
