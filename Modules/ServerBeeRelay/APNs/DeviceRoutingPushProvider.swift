import ServerBeeModels

/// Sends each push to this relay's local devices when the token is one of theirs, and to another
/// provider (APNs) otherwise: what `serverbee-relay` runs once it has an APNs key.
///
/// ```swift
/// let devices = LocalDevicePushProvider()
/// let provider = DeviceRoutingPushProvider(local: devices, remote: apns)
/// let relay = RelayServer(provider: provider)
/// ```
public struct DeviceRoutingPushProvider: PushProvider {
  /// The relay's local devices.
  public let local: LocalDevicePushProvider
  /// Where every other token goes.
  public let remote: any PushProvider

  /// Creates the router.
  /// - Parameters:
  ///   - local: The local devices.
  ///   - remote: The provider for tokens the relay did not issue.
  public init(local: LocalDevicePushProvider, remote: any PushProvider) {
    self.local = local
    self.remote = remote
  }

  /// Delivers to the local device or to the remote provider.
  /// - Parameter delivery: The delivery.
  /// - Returns: The answer of whichever provider took it.
  public func deliver(_ delivery: RelayDelivery) async -> ProviderAnswer {
    if local.knows(deviceToken: delivery.deviceToken) { return await local.deliver(delivery) }
    return await remote.deliver(delivery)
  }
}
