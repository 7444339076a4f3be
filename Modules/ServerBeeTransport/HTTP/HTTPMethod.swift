public import ServerBeeModels

/// An HTTP request method such as `GET` or `POST`.
///
/// A `WireString`, so an unusual method still round-trips:
///
/// ```swift
/// let method: HTTPMethod = .post
/// ```
public struct HTTPMethod: WireString {
  /// The method token, for example `"GET"`.
  public let rawValue: String

  /// Creates a method from its token.
  /// - Parameter rawValue: The method token, for example `"GET"`.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// `GET`.
  public static let get: Self = "GET"
  /// `POST`.
  public static let post: Self = "POST"
  /// `PUT`.
  public static let put: Self = "PUT"
  /// `PATCH`.
  public static let patch: Self = "PATCH"
  /// `DELETE`.
  public static let delete: Self = "DELETE"
  /// `HEAD`.
  public static let head: Self = "HEAD"
  /// `OPTIONS`.
  public static let options: Self = "OPTIONS"
}
