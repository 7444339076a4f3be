import Foundation
import ServerBeeCore
public import ServerBeeModels
import ServerBeeTransport

/// A push provider for devices on this machine (a Linux or desktop ServerBee client): the relay
/// issues each device a token, as APNs does, and the device receives every push over a WebSocket
/// as the exact APNs payload.
///
/// A device asks the relay for a token once, registers it with its ServerBee server as usual,
/// and subscribes whenever it wants its pushes:
///
/// ```
/// POST /v1/devices HTTP/1.1
/// X-ServerBee-Environment: sandbox        (optional; sandbox by default)
///
/// HTTP/1.1 201 Created
/// {"device_token":"4f3c…","environment":"sandbox"}
///
/// GET /v1/devices/stream HTTP/1.1
/// Upgrade: websocket
/// X-ServerBee-Device-Token: 4f3c…
/// X-ServerBee-Environment: sandbox
/// ```
///
/// Every push then arrives as one text message holding the APNs payload. In Swift:
///
/// ```swift
/// let devices = LocalDevicePushProvider()
/// let relay = RelayServer(provider: devices)
/// try relay.start()
/// let token = try devices.provision(environment: .sandbox)  // known, offline
/// devices.devices()  // [LocalDevice] with online/pending state
/// ```
///
/// Rules, chosen to behave like APNs:
/// - A token is valid from the moment it is issued (``provision(environment:)`` or
///   `POST /v1/devices`), before the device ever subscribes.
/// - A token the relay never issued and that never subscribed → `BadDeviceToken`
///   (`DeviceOrEnvironmentMismatch`). A device that subscribes with a token it chose itself is
///   registered by that subscribe (the older way, still accepted).
/// - A token of another environment → `BadDeviceToken`.
/// - A token unregistered with `DELETE /v1/devices/{token}` (same header) → 410 `Unregistered`
///   (`device_invalid: true`) until it subscribes again, which registers it anew; its open
///   streams are closed with 1000 `unregistered`.
/// - An online device gets the payload at once (`accepted`). A known offline device gets
///   `accepted` too: the payload is held, at most ``Limits/maximumPendingPerDevice`` (64) per
///   device (the oldest dropped first), each until its `apns-expiration` by the relay clock,
///   and delivered in order on the next subscribe.
/// - At most ``Limits/maximumDevices`` (10,000) devices are known; then a new token is refused
///   (`POST /v1/devices` and a subscribe with an unknown token answer 503 `DeviceLimitReached`).
///
/// Devices live in memory: a relay that restarts knows a device again when it subscribes.
public final class LocalDevicePushProvider: PushProvider {
  /// Bounds on what the provider keeps.
  public struct Limits: Sendable, Hashable {
    /// The most devices known at once (unregistered ones included); 10,000.
    public var maximumDevices: Int
    /// The most payloads held for one offline device (the oldest dropped first); 64.
    public var maximumPendingPerDevice: Int

    /// Creates limits with the documented defaults.
    /// - Parameters:
    ///   - maximumDevices: The device cap.
    ///   - maximumPendingPerDevice: The per-device queue bound.
    public init(maximumDevices: Int = 10_000, maximumPendingPerDevice: Int = 64) {
      self.maximumDevices = maximumDevices
      self.maximumPendingPerDevice = maximumPendingPerDevice
    }
  }

  private let clock: RelayClock
  private let limits: Limits
  private let randomBytes: @Sendable (Int) -> [UInt8]
  private let state = Locked(State())

  private struct State {
    var devices: [String: Device] = [:]
    var nextSubscriber = 0
  }

  /// One payload held for an offline device.
  struct Pending {
    /// The APNs payload bytes; made text only when sent (most held payloads never are).
    var payload: Data
    var expiresAt: Int64

    /// The payload as the text message a device receives.
    var text: String { String(decoding: payload, as: UTF8.self) }
  }

  private struct Device {
    var environment: PushEnvironment
    var registered = true
    var pending: [Pending] = []
    var subscribers: [Int: any WebSocketConnection] = [:]
  }

  /// One device the provider knows, as listed by ``devices()``.
  public struct LocalDevice: Hashable, Sendable {
    /// The device token.
    public var deviceToken: String
    /// The environment it was issued or subscribed with.
    public var environment: PushEnvironment
    /// `false` after it unregistered.
    public var isRegistered: Bool
    /// Whether a stream is open.
    public var isOnline: Bool
    /// How many undelivered payloads wait for it (expired ones may still be counted until the
    /// next push or subscribe drops them).
    public var pendingCount: Int
    /// Whether an undelivered payload waits for it.
    public var hasPending: Bool { pendingCount > 0 }
  }

  /// Creates a provider with no devices.
  /// - Parameters:
  ///   - clock: The clock for payload expiry; the system clock by default.
  ///   - limits: The device cap and the per-device queue bound.
  public convenience init(clock: RelayClock = .system, limits: Limits = Limits()) {
    self.init(
      clock: clock, limits: limits,
      randomBytes: { count in
        SecureRandom.bytes(count)
      })
  }

  /// Every seam, the token randomness included (tests).
  init(clock: RelayClock, limits: Limits, randomBytes: @escaping @Sendable (Int) -> [UInt8]) {
    self.clock = clock
    self.limits = limits
    self.randomBytes = randomBytes
  }

  /// The devices known so far, sorted by token.
  /// - Returns: The devices.
  public func devices() -> [LocalDevice] {
    state.withLock { state in
      state.devices.map { token, device in
        LocalDevice(
          deviceToken: token, environment: device.environment, isRegistered: device.registered,
          isOnline: !device.subscribers.isEmpty, pendingCount: device.pending.count)
      }
      .sorted { $0.deviceToken < $1.deviceToken }
    }
  }

  /// Delivers to an online device, or holds the payload for a known offline one.
  /// - Parameter delivery: The delivery.
  /// - Returns: `accepted`, `badDeviceToken` or `unregistered` (see the type's rules).
  public func deliver(_ delivery: RelayDelivery) async -> ProviderAnswer {
    let item = Pending(payload: delivery.payload, expiresAt: delivery.expiresAt)
    let now = clock.now()
    let lookup = state.withLock { state -> Result<[any WebSocketConnection], Refusal> in
      // The device is changed where it is stored: a copy taken out and written back would copy
      // its queue of up to 64 payloads on every push.
      guard let index = state.devices.index(forKey: delivery.deviceToken) else {
        return .failure(.badDeviceToken)
      }
      guard state.devices.values[index].registered else { return .failure(.unregistered) }
      guard state.devices.values[index].environment == delivery.environment else {
        return .failure(.badDeviceToken)
      }
      if state.devices.values[index].subscribers.isEmpty {
        hold(item, for: &state.devices.values[index], now: now)
        return .success([])
      }
      return .success(Array(state.devices.values[index].subscribers.values))
    }
    let subscribers: [any WebSocketConnection]
    switch lookup {
    case .failure(.badDeviceToken): return .badDeviceToken
    case .failure(.unregistered): return .unregistered
    case .success(let list): subscribers = list
    }
    guard !subscribers.isEmpty else { return .accepted }
    let text = item.text
    var delivered = false
    for subscriber in subscribers {
      if (try? await subscriber.send(.text(text))) != nil { delivered = true }
    }
    if !delivered {
      // Every stream failed mid-send: hold it like an offline device would.
      state.withLock { state in
        guard let index = state.devices.index(forKey: delivery.deviceToken) else { return }
        hold(item, for: &state.devices.values[index], now: now)
      }
    }
    return .accepted
  }

  /// Appends to the device's queue after dropping what has expired, then keeps the newest
  /// `maximumPendingPerDevice`.
  private func hold(_ item: Pending, for device: inout Device, now: Int64) {
    device.pending.removeAll { $0.expiresAt <= now }
    device.pending.append(item)
    let bound = max(0, limits.maximumPendingPerDevice)
    if device.pending.count > bound { device.pending.removeFirst(device.pending.count - bound) }
  }

  private enum Refusal: Error {
    case badDeviceToken, unregistered
  }

  /// Whether `deviceToken` is one of this relay's local devices (issued, subscribed or
  /// unregistered since): ``DeviceRoutingPushProvider`` sends it here rather than to APNs.
  /// - Parameter deviceToken: The lowercase hex token.
  /// - Returns: Whether the provider knows it.
  public func knows(deviceToken: String) -> Bool {
    state.withLock { $0.devices[deviceToken] != nil }
  }

  /// Issues a token for a new device, known (offline) from now on: 32 random bytes as lowercase
  /// hex. This is what `POST /v1/devices` does.
  ///
  /// ```swift
  /// let token = try devices.provision(environment: .production)
  /// // a send to `token` in production is now `accepted` and held until it subscribes
  /// ```
  ///
  /// - Parameter environment: Its environment; `sandbox` by default.
  /// - Returns: The token.
  /// - Throws: ``ServerBeeRelayError`` with `deviceLimitReached` when
  ///   ``Limits/maximumDevices`` devices are known.
  public func provision(environment: PushEnvironment = .sandbox) throws -> String {
    // 32 random bytes never repeat in practice; the loop only guards a broken generator
    // against handing out a token that is already someone else's.
    for _ in 0..<4 {
      let token = Hex.encode(randomBytes(32))
      guard token.utf8.count == 64 else { break }
      let added = state.withLock { state -> Bool? in
        guard state.devices[token] == nil else { return false }
        guard makeRoom(in: &state) else { return nil }
        state.devices[token] = Device(environment: environment)
        return true
      }
      switch added {
      case true?: return token
      case false?: continue
      case nil:
        throw ServerBeeRelayError(
          .deviceLimitReached, "the relay already knows \(limits.maximumDevices) devices")
      }
    }
    throw ServerBeeRelayError(.deviceLimitReached, "the random source gave no new token")
  }

  /// Whether one more device fits; at the cap, forgets one unregistered device to make room.
  private func makeRoom(in state: inout State) -> Bool {
    guard state.devices.count >= max(0, limits.maximumDevices) else { return true }
    guard let stale = state.devices.first(where: { !$0.value.registered })?.key else {
      return false
    }
    state.devices[stale] = nil
    return state.devices.count < limits.maximumDevices
  }

  /// Registers a device without opening a stream (it is offline until it subscribes), as if it
  /// had subscribed once; re-registers an unregistered one. A change of environment or a
  /// re-registration drops what was held for it.
  /// - Parameters:
  ///   - deviceToken: The lowercase hex token.
  ///   - environment: Its environment; `sandbox` by default.
  /// - Returns: `false` when the token is new and ``Limits/maximumDevices`` devices are known.
  @discardableResult
  public func register(deviceToken: String, environment: PushEnvironment = .sandbox) -> Bool {
    state.withLock { state in
      if state.devices[deviceToken] == nil, !makeRoom(in: &state) { return false }
      var device = state.devices[deviceToken] ?? Device(environment: environment)
      if device.environment != environment || !device.registered { device.pending = [] }
      device.environment = environment
      device.registered = true
      state.devices[deviceToken] = device
      return true
    }
  }

  // MARK: - For RelayServer

  /// Takes what is held for a device that is about to go online, or registers the stream when
  /// nothing is: the caller sends the returned payloads, in order, then calls again, so a push
  /// that arrives meanwhile is held behind them instead of overtaking them.
  func attachOrTakePending(
    deviceToken: String, environment: PushEnvironment, connection: any WebSocketConnection
  ) -> Attachment {
    let now = clock.now()
    return state.withLock { state in
      var device = state.devices[deviceToken] ?? Device(environment: environment)
      if device.environment != environment || !device.registered { device.pending = [] }
      device.environment = environment
      device.registered = true
      device.pending.removeAll { $0.expiresAt <= now }
      defer { state.devices[deviceToken] = device }
      if !device.pending.isEmpty {
        let pending = device.pending
        device.pending = []
        return .pending(pending)
      }
      state.nextSubscriber += 1
      device.subscribers[state.nextSubscriber] = connection
      return .attached(id: state.nextSubscriber)
    }
  }

  /// What ``attachOrTakePending(deviceToken:environment:connection:)`` did.
  enum Attachment {
    /// Send these first, then call again.
    case pending([Pending])
    /// The stream is registered under this id.
    case attached(id: Int)
  }

  /// Puts payloads that could not be sent back at the front of the device's queue.
  func requeue(deviceToken: String, _ payloads: [Pending]) {
    guard !payloads.isEmpty else { return }
    state.withLock { state in
      guard var device = state.devices[deviceToken], device.registered else { return }
      device.pending.insert(contentsOf: payloads, at: 0)
      let bound = max(0, limits.maximumPendingPerDevice)
      if device.pending.count > bound { device.pending.removeFirst(device.pending.count - bound) }
      state.devices[deviceToken] = device
    }
  }

  /// Removes a stream.
  func detach(deviceToken: String, id: Int) {
    state.withLock { _ = $0.devices[deviceToken]?.subscribers.removeValue(forKey: id) }
  }

  /// Unregisters a token (recording it when there is room); returns its open streams to close.
  func unregister(deviceToken: String) -> [any WebSocketConnection] {
    state.withLock { state in
      if state.devices[deviceToken] == nil, !makeRoom(in: &state) { return [] }
      var device = state.devices[deviceToken] ?? Device(environment: .sandbox)
      device.registered = false
      device.pending = []
      let open = Array(device.subscribers.values)
      device.subscribers = [:]
      state.devices[deviceToken] = device
      return open
    }
  }
}
