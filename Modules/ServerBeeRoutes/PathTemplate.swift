import ServerBeeCore

/// A route's path as the server's router spells it: literal segments and named placeholders,
/// such as `/api/alert-rules/{id}/states`.
///
/// A template only says where the values go; ``APIRoute`` says how many there are (its
/// `Path` type), and ``path(_:)`` percent-encodes each value so that no value can change the
/// route it is sent to.
///
/// ```swift
/// let template = PathTemplate("/api/servers/{id}/records")
/// let path = try template.path(["srv 1"])  // "/api/servers/srv%201/records"
/// ```
public struct PathTemplate: Sendable, Hashable, CustomStringConvertible {
  /// One segment of a template.
  public enum Segment: Sendable, Hashable {
    /// A segment sent as written.
    case literal(String)
    /// A placeholder, by its name in the template (`id` for `{id}`).
    case parameter(String)
  }

  /// The template as written, for example `/api/alert-rules/{id}/states`.
  public let text: String
  /// The segments after the leading `/`.
  public let segments: [Segment]

  /// Reads a template; `{name}` segments are placeholders.
  /// - Parameter text: The path, starting with `/`.
  public init(_ text: String) {
    self.text = text
    self.segments = text.split(separator: "/").map { part in
      if part.first == "{", part.last == "}" {
        return .parameter(String(part.dropFirst().dropLast()))
      }
      return .literal(String(part))
    }
  }

  /// How many placeholders the template has.
  public var parameterCount: Int {
    segments.reduce(0) { count, segment in
      if case .parameter = segment { return count + 1 }
      return count
    }
  }

  /// The template with every placeholder written `{}`: two templates with the same shape name
  /// the same route (`/api/servers/{id}` and `/api/servers/{server_id}`).
  public var shape: String {
    "/"
      + segments.map { segment in
        switch segment {
        case .literal(let text): return text
        case .parameter: return "{}"
        }
      }.joined(separator: "/")
  }

  /// The template as written.
  public var description: String { text }

  /// The path with `values` in the placeholders, in order, each percent-encoded.
  /// - Parameter values: One value per placeholder.
  /// - Returns: The path, for example `/api/alert-rules/r%2F1/states`.
  /// - Throws: ``ServerBeeRoutesError`` `.invalidArgument` when the count differs or a value is
  ///   empty (an empty segment would name another route).
  public func path(_ values: [String]) throws -> String {
    guard values.count == parameterCount else {
      throw ServerBeeRoutesError(
        .invalidArgument, "\(text) takes \(parameterCount) values, not \(values.count)")
    }
    var remaining = values[...]
    var path = ""
    for segment in segments {
      path += "/"
      switch segment {
      case .literal(let literal): path += literal
      case .parameter(let name):
        let value = remaining.popFirst() ?? ""
        guard !value.isEmpty else {
          throw ServerBeeRoutesError(.invalidArgument, "the \(name) must not be empty")
        }
        path += PercentEncoding.segment(value)
      }
    }
    return path
  }

  /// The values of `path`'s placeholders when `path` (split into segments, not decoded) fits
  /// the template, else `nil`.
  /// - Parameter pathSegments: A request path split at `/`, without empty segments.
  /// - Returns: The segments in the placeholders' places, in order.
  public func match(_ pathSegments: some Collection<String>) -> [String]? {
    guard pathSegments.count == segments.count else { return nil }
    var values: [String] = []
    for (segment, part) in zip(segments, pathSegments) {
      switch segment {
      case .literal(let literal): if literal != part { return nil }
      case .parameter: values.append(part)
      }
    }
    return values
  }
}
