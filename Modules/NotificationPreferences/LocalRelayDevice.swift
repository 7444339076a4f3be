public import Foundation
public import ServerBeeModels

/// This installation as a local device of a `serverbee-relay`, as kept in the credential store:
/// the token, its environment and the relay that issued it.
///
/// ``LocalRelayDeviceTokenProvider`` stores it (one value, app-private group) and reads it back;
/// a listener uses ``relayURL`` so that it needs no relay option after notifications were
/// enabled. The description leaves the token out.
///
/// ```swift
/// if let device = try await tokens.storedDevice(), let relay = device.relayURL {
///   let stream = LocalRelayDeviceStream(
///     relay: relay, deviceToken: device.pushDeviceToken, transport: webSocket)
/// }
/// ```
public struct LocalRelayDevice: Codable, Sendable, Hashable, CustomStringConvertible {
  /// The token as lowercase hex. Secret enough not to log.
  public var deviceToken: String
  /// The environment the token belongs to.
  public var environment: PushEnvironment
  /// The relay that issued the token (its base URL); `nil` for a token made on this device
  /// before relays issued tokens, which a relay learns only when the device subscribes.
  public var relayURL: URL?

  /// Creates a device record.
  /// - Parameters:
  ///   - deviceToken: The token as lowercase hex.
  ///   - environment: Its environment.
  ///   - relayURL: The issuing relay's base URL, if any.
  public init(deviceToken: String, environment: PushEnvironment, relayURL: URL?) {
    self.deviceToken = deviceToken
    self.environment = environment
    self.relayURL = relayURL
  }

  /// The token with its environment, as the server registration wants it.
  public var pushDeviceToken: PushDeviceToken {
    PushDeviceToken(hex: deviceToken, environment: environment)
  }

  /// A description without the token.
  public var description: String {
    "LocalRelayDevice(environment: \(environment), relay: "
      + "\(relayURL?.absoluteString ?? "none"), \(deviceToken.utf8.count / 2) bytes)"
  }

  enum CodingKeys: String, CodingKey {
    case deviceToken = "device_token"
    case environment
    case relayURL = "relay_url"
  }
}
