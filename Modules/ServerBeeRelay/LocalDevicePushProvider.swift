import Foundation
public import ServerBeeModels
import ServerBeeTransport

/// A push provider for devices on this machine (a Linux or desktop ServerBee client): a device
/// subscribes over a WebSocket and receives each push as the exact APNs payload, like APNs would
/// hand it to the app.
///
/// A device makes up its own token (lowercase hex, even length, 2–1024 chars), registers it with
/// its ServerBee server as usual, and subscribes to the relay:
///
/// ```
/// GET /v1/devices/stream HTTP/1.1
/// Upgrade: websocket
/// X-ServerBee-Device-Token: 4f3c…
/// X-ServerBee-Environment: sandbox        (optional; sandbox by default)
/// ```
///
/// Every push then arrives as one text message holding the APNs payload. In Swift:
///
/// ```swift
/// let devices = LocalDevicePushProvider()
/// let relay = RelayServer(provider: devices)
/// try relay.start()
/// devices.devices()  // [LocalDevice] with online/pending state
/// ```
///
/// Rules, chosen to behave like APNs:
/// - A token that never subscribed → `BadDeviceToken` (`DeviceOrEnvironmentMismatch`).
/// - A token that subscribed in another environment → `BadDeviceToken`.
/// - A token unregistered with `DELETE /v1/devices/{token}` (same header) → 410 `Unregistered`
///   (`device_invalid: true`) until it subscribes again, which registers it anew.
/// - An online device gets the payload at once (`accepted`). An offline device keeps only the
///   newest undelivered payload (`accepted`), delivered on its next subscribe unless its
///   `apns-expiration` has passed by then (then it is dropped).
public final class LocalDevicePushProvider: PushProvider {
  private let clock: RelayClock
  private let state = Locked(State())

  private struct State {
    var devices: [String: Device] = [:]
    var nextSubscriber = 0
  }

  private struct Device {
    var environment: PushEnvironment
    var registered = true
    var pending: (payload: String, expiresAt: Int64)?
    var subscribers: [Int: any WebSocketConnection] = [:]
  }

  /// One device the provider knows, as listed by ``devices()``.
  public struct LocalDevice: Hashable, Sendable {
    /// The device token.
    public var deviceToken: String
    /// The environment it subscribed with.
    public var environment: PushEnvironment
    /// `false` after it unregistered.
    public var isRegistered: Bool
    /// Whether a stream is open.
    public var isOnline: Bool
    /// Whether an undelivered payload waits for it.
    public var hasPending: Bool
  }

  /// Creates a provider with no devices.
  /// - Parameter clock: The clock for payload expiry; the system clock by default.
  public init(clock: RelayClock = .system) {
    self.clock = clock
  }

  /// The devices seen so far, sorted by token.
  /// - Returns: The devices.
  public func devices() -> [LocalDevice] {
    state.withLock { state in
      state.devices.map { token, device in
        LocalDevice(
          deviceToken: token, environment: device.environment, isRegistered: device.registered,
          isOnline: !device.subscribers.isEmpty, hasPending: device.pending != nil)
      }
      .sorted { $0.deviceToken < $1.deviceToken }
    }
  }

  /// Delivers to an online device, or keeps the payload as the device's newest pending one.
  /// - Parameter delivery: The delivery.
  /// - Returns: `accepted`, `badDeviceToken` or `unregistered` (see the type's rules).
  public func deliver(_ delivery: RelayDelivery) async -> ProviderAnswer {
    let text = delivery.payloadText
    let lookup = state.withLock { state -> Result<[any WebSocketConnection], Refusal> in
      guard let device = state.devices[delivery.deviceToken] else {
        return .failure(.badDeviceToken)
      }
      guard device.registered else { return .failure(.unregistered) }
      guard device.environment == delivery.environment else { return .failure(.badDeviceToken) }
      if device.subscribers.isEmpty {
        state.devices[delivery.deviceToken]?.pending = (text, delivery.expiresAt)
      }
      return .success(Array(device.subscribers.values))
    }
    let subscribers: [any WebSocketConnection]
    switch lookup {
    case .failure(.badDeviceToken): return .badDeviceToken
    case .failure(.unregistered): return .unregistered
    case .success(let list): subscribers = list
    }
    guard !subscribers.isEmpty else { return .accepted }
    var delivered = false
    for subscriber in subscribers {
      if (try? await subscriber.send(.text(text))) != nil { delivered = true }
    }
    if !delivered {
      // Every stream failed mid-send: keep it like an offline device would.
      state.withLock { $0.devices[delivery.deviceToken]?.pending = (text, delivery.expiresAt) }
    }
    return .accepted
  }

  private enum Refusal: Error {
    case badDeviceToken, unregistered
  }

  /// Registers a device without opening a stream (it is offline until it subscribes), as if it
  /// had subscribed once; re-registers an unregistered one.
  /// - Parameters:
  ///   - deviceToken: The lowercase hex token.
  ///   - environment: Its environment; `sandbox` by default.
  public func register(deviceToken: String, environment: PushEnvironment = .sandbox) {
    state.withLock { state in
      var device = state.devices[deviceToken] ?? Device(environment: environment)
      if device.environment != environment || !device.registered { device.pending = nil }
      device.environment = environment
      device.registered = true
      state.devices[deviceToken] = device
    }
  }

  // MARK: - For RelayServer

  /// Registers an open stream; returns its id and the pending payload to send first, if it has
  /// not expired.
  func attach(
    deviceToken: String, environment: PushEnvironment, connection: any WebSocketConnection
  ) -> (id: Int, pending: String?) {
    let now = clock.now()
    return state.withLock { state in
      state.nextSubscriber += 1
      let id = state.nextSubscriber
      var device = state.devices[deviceToken] ?? Device(environment: environment)
      device.environment = environment
      device.registered = true
      var pending: String?
      if let waiting = device.pending, waiting.expiresAt > now { pending = waiting.payload }
      device.pending = nil
      device.subscribers[id] = connection
      state.devices[deviceToken] = device
      return (id, pending)
    }
  }

  /// Removes a stream.
  func detach(deviceToken: String, id: Int) {
    state.withLock { _ = $0.devices[deviceToken]?.subscribers.removeValue(forKey: id) }
  }

  /// Unregisters a token (creating the record if needed); returns its open streams to close.
  func unregister(deviceToken: String) -> [any WebSocketConnection] {
    state.withLock { state in
      var device = state.devices[deviceToken] ?? Device(environment: .sandbox)
      device.registered = false
      device.pending = nil
      let open = Array(device.subscribers.values)
      device.subscribers = [:]
      state.devices[deviceToken] = device
      return open
    }
  }
}
