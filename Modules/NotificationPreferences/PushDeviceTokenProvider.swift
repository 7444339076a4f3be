public import ServerBeeModels

/// A device token and the APNs environment it belongs to.
///
/// The description leaves the token out, so logging the value does not leak it.
///
/// ```swift
/// let token = PushDeviceToken(hex: "ab12…", environment: .sandbox)
/// ```
public struct PushDeviceToken: Sendable, Hashable, CustomStringConvertible {
  /// The token as lowercase hex. Secret enough not to log.
  public var hex: String
  /// `sandbox` or `production`.
  public var environment: PushEnvironment

  /// Creates a token.
  /// - Parameters:
  ///   - hex: The token as lowercase hex.
  ///   - environment: The APNs environment.
  public init(hex: String, environment: PushEnvironment) {
    self.hex = hex
    self.environment = environment
  }

  /// The token bytes as lowercase hex, as `encrypted-register` wants them.
  /// - Parameters:
  ///   - bytes: The raw token (iOS: the `Data` of `didRegisterForRemoteNotificationsWithDeviceToken`).
  ///   - environment: The APNs environment.
  public init(bytes: some Sequence<UInt8>, environment: PushEnvironment) {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    self.init(hex: String(decoding: text, as: UTF8.self), environment: environment)
  }

  /// A description without the token.
  public var description: String {
    "PushDeviceToken(environment: \(environment), \(hex.utf8.count / 2) bytes)"
  }
}

/// Gives the device token to register with the server (Protocol/Push.md §2.9 step 3).
///
/// iOS: `RemoteNotificationsDeviceTokenProvider` (calls `registerForRemoteNotifications` and waits
/// for the app delegate's answer); a Linux or desktop device of a `serverbee-relay`:
/// ``LocalRelayDeviceTokenProvider``; tests: a fake returning a fixed token.
///
/// ```swift
/// struct FixedToken: PushDeviceTokenProvider {
///   func deviceToken() async throws -> PushDeviceToken {
///     PushDeviceToken(hex: String(repeating: "ab", count: 32), environment: .sandbox)
///   }
/// }
/// ```
public protocol PushDeviceTokenProvider: Sendable {
  /// The current device token, lowercase hex, with its environment.
  /// - Returns: The token.
  /// - Throws: ``NotificationPreferencesError`` (`deviceTokenUnavailable`), or the platform's
  ///   error.
  func deviceToken() async throws -> PushDeviceToken
}
