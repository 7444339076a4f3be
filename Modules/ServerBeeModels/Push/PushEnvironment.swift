/// The APNs environment of a device token (Protocol/Push.md §2.5, Protocol/Relay.md): `sandbox` or
/// `production`.
///
/// Debug builds of the app register `sandbox`, release builds `production`; `development` is
/// refused by the server.
public struct PushEnvironment: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a value from its wire text.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// `sandbox`: the development APNs gateway.
  public static let sandbox: Self = "sandbox"
  /// `production`: the production APNs gateway.
  public static let production: Self = "production"
}
