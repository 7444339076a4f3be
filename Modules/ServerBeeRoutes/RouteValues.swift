/// The values of a route's path placeholders, in order.
///
/// The catalogue gives each route the type that fits its template: ``NoPath`` for none,
/// ``PathID`` for one, ``PathIDPair`` for two.
public protocol PathParameters: Sendable {
  /// How many placeholders values of this type fill.
  static var count: Int { get }
  /// The values, in the template's order.
  var values: [String] { get }
}

/// No path placeholders.
public struct NoPath: PathParameters, Hashable {
  /// No values.
  public init() {}
  /// How many placeholders the type fills.
  public static var count: Int { 0 }
  /// The values, in the template's order.
  public var values: [String] { [] }
}

/// One path placeholder, such as a server, rule or user id.
///
/// ```swift
/// try await routes.send(RouteCatalogue.Servers.server, PathID(serverID))
/// ```
public struct PathID: PathParameters, Hashable, ExpressibleByStringLiteral {
  /// The value.
  public var value: String
  /// Wraps a value.
  /// - Parameter value: The id as the server spells it; it is percent-encoded when sent.
  public init(_ value: String) { self.value = value }
  /// Wraps a literal.
  public init(stringLiteral value: String) { self.value = value }
  /// How many placeholders the type fills.
  public static var count: Int { 1 }
  /// The values, in the template's order.
  public var values: [String] { [value] }
}

/// Two path placeholders, such as a server and one of its offers.
public struct PathIDPair: PathParameters, Hashable {
  /// The first placeholder's value.
  public var first: String
  /// The second placeholder's value.
  public var second: String
  /// Wraps two values, in the template's order.
  public init(_ first: String, _ second: String) {
    self.first = first
    self.second = second
  }
  /// How many placeholders the type fills.
  public static var count: Int { 2 }
  /// The values, in the template's order.
  public var values: [String] { [first, second] }
}

/// No request body.
public struct NoBody: Encodable, Sendable, Hashable {
  /// No body.
  public init() {}
  /// Writes nothing; ``RouteClient`` sends no body for this type.
  public func encode(to encoder: any Encoder) throws {}
}

/// A success payload nobody reads (`"ok"`, or whatever the route answers); any JSON value, or
/// none, decodes.
public struct Ignored: Decodable, Sendable, Hashable {
  /// Nothing.
  public init() {}
  /// Reads nothing.
  public init(from decoder: any Decoder) throws {}
}
