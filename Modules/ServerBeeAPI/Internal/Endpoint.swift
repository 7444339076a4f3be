import Foundation
import ServerBeeModels
import ServerBeeTransport

/// One REST call: method, path segments, query items, and what a v1 server's answer to it
/// means.
struct Endpoint: Sendable {
  /// How to read an answer that a server without the v2 feature this call needs would give.
  enum V2Requirement: Sendable {
    /// Nothing v2-only in the request.
    case none
    /// A `v1.` alert key: a v1 server splits the key at `:`, finds none and answers 400.
    case v1AlertKey
  }

  var method: HTTPMethod = .get
  /// Path segments after `/api`, not yet percent-encoded.
  var segments: [String]
  /// Query items in wire order; `nil` values are left out.
  var query: [(name: String, value: String?)] = []
  var v2Requirement: V2Requirement = .none
  /// A JSON body, already encoded the way a ServerBee server writes JSON; `nil` for none.
  var body: Data?

  init(
    _ method: HTTPMethod = .get, _ segments: String..., query: [(String, String?)] = [],
    v2Requirement: V2Requirement = .none
  ) {
    self.method = method
    self.segments = segments
    self.query = query.map { (name: $0.0, value: $0.1) }
    self.v2Requirement = v2Requirement
  }

  /// The same call with `value` as its JSON body.
  /// - Throws: ``ServerBeeAPIError`` `.invalidArgument` if the value cannot be encoded.
  func sending(_ value: some Encodable) throws -> Endpoint {
    var copy = self
    do {
      copy.body = try WireJSON.encode(value)
    } catch {
      throw ServerBeeAPIError(.invalidArgument, "\(summary): the request body could not be written")
    }
    return copy
  }

  /// `/api/servers/{id}`: the path with each segment percent-encoded, without the query. Used
  /// in error messages (a query may hold a cursor, never worth repeating).
  var path: String {
    "/api/" + segments.map(Self.encodedSegment).joined(separator: "/")
  }

  /// The path and, when any item has a value, the query.
  var pathAndQuery: String {
    let items = query.compactMap { item in
      item.value.map {
        Self.encodedQueryComponent(item.name) + "=" + Self.encodedQueryComponent($0)
      }
    }
    return items.isEmpty ? path : path + "?" + items.joined(separator: "&")
  }

  /// `GET /api/servers`, for messages.
  var summary: String { "\(method.rawValue) \(path)" }

  /// Unreserved characters (RFC 3986) plus `:` and `@`, which a path segment may hold as they
  /// are (legacy alert keys are `rule:server`). Everything else, `/`, `?`, `#` and `%`
  /// included, is percent-encoded, so an id can never change the route.
  private static let segmentAllowed = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:@")
  /// Unreserved characters plus `:`. Notably `+` is encoded: unencoded, a query parser reads it
  /// as a space (wire contract v1 §1.5).
  private static let queryAllowed = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:")

  static func encodedSegment(_ segment: String) -> String {
    // A segment of only dots would be read as "this" or "parent" directory by URL resolution.
    if !segment.isEmpty, segment.allSatisfy({ $0 == "." }) {
      return String(repeating: "%2E", count: segment.count)
    }
    return segment.addingPercentEncoding(withAllowedCharacters: segmentAllowed) ?? ""
  }

  static func encodedQueryComponent(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? ""
  }
}
