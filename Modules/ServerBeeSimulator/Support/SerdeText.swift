import Foundation
import ServerBeeModels

extension JSONValue {
  /// The text serde writes for this value when the server stored it as a `serde_json::Value`:
  /// the same values, with every object's keys in byte order, because serde's map is sorted
  /// (Protocol/AppRoutes.md §9). A client's own key order does not survive such a round trip.
  ///
  /// ```swift
  /// try JSONValue.object([("when", .null), ("status", .string("blocked"))]).serdeText
  /// // {"status":"blocked","when":null}
  /// ```
  var serdeText: String {
    get throws { String(decoding: try WireJSON.encode(keysSorted), as: UTF8.self) }
  }

  private var keysSorted: JSONValue {
    switch self {
    case .array(let items): return .array(items.map(\.keysSorted))
    case .object(let members):
      return .object(
        members.sorted { Array($0.key.utf8).lexicographicallyPrecedes($1.key.utf8) }
          .map { (key: $0.key, value: $0.value.keysSorted) })
    default: return self
    }
  }
}
