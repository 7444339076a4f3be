public import Foundation
public import ServerBeeModels

/// The APNs ``PushDeviceTokenProvider``: asks the app to register for remote notifications
/// and waits for the app delegate to hand the token (or the failure) back.
///
/// Portable on purpose: the waiting and the hand-over are plain Swift, built and tested on
/// Linux; the only platform call is the `register` closure
/// (`UIApplication.shared.registerForRemoteNotifications()` on iOS). `ServerBeeClient` makes
/// one by default on Apple platforms; the app delegate's two callbacks go to
/// `ServerBeeClient.deliverDeviceToken(_:)` and `failDeviceTokenRegistration(_:)`.
///
/// ```swift
/// let remoteTokens = RemoteNotificationsDeviceTokenProvider(environment: .production) {
///   await MainActor.run { UIApplication.shared.registerForRemoteNotifications() }
/// }
/// // AppDelegate:
/// func application(_: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken token: Data) {
///   remoteTokens.deliver(token)
/// }
/// func application(_: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error) {
///   remoteTokens.fail(error)
/// }
/// ```
public final class RemoteNotificationsDeviceTokenProvider: PushDeviceTokenProvider, Sendable {
  private let environment: PushEnvironment
  private let timeout: Duration
  private let register: @Sendable () async -> Void
  /// The waiting callers by number and the answer that arrived before anyone waited.
  private struct Pending {
    var waiters: [Int: CheckedContinuation<Data, any Error>] = [:]
    var nextWaiter = 0
    var early: Result<Data, any Error>?
  }
  private let pending = Locked(Pending())

  /// Creates the provider.
  /// - Parameters:
  ///   - environment: The build's APNs environment (`Info.plist ServerBeeAPNSEnvironment`:
  ///     Debug `sandbox`, Release `production`).
  ///   - timeout: How long to wait for the app delegate's answer (30 s): a process that never
  ///     gets one (no push entitlement, no app delegate) fails instead of waiting forever.
  ///   - register: Calls `registerForRemoteNotifications()` on the main actor.
  public init(
    environment: PushEnvironment, timeout: Duration = .seconds(30),
    register: @escaping @Sendable () async -> Void
  ) {
    self.environment = environment
    self.timeout = timeout
    self.register = register
  }

  /// Registers for remote notifications and waits for the token.
  /// - Returns: The token as lowercase hex.
  /// - Throws: The platform's registration error, or ``NotificationPreferencesError``
  ///   `.deviceTokenUnavailable` when no answer came within the timeout.
  public func deviceToken() async throws -> PushDeviceToken {
    pending.withLock { $0.early = nil }
    await register()
    // The delegate may have answered already (kept in `early`), or answers later.
    let id = pending.withLock { state -> Int in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    let expiry = Task { [timeout, weak self] in
      try await Task.sleep(for: timeout)
      self?.expire(id)
    }
    defer { expiry.cancel() }
    let data = try await withCheckedThrowingContinuation { continuation in
      let early = pending.withLock { state -> Result<Data, any Error>? in
        if let early = state.early { return early }
        state.waiters[id] = continuation
        return nil
      }
      if let early { continuation.resume(with: early) }
    }
    return PushDeviceToken(bytes: data, environment: environment)
  }

  /// Hands the app delegate's token to the waiting callers.
  /// - Parameter token: The token bytes.
  public func deliver(_ token: Data) { finish(.success(token)) }

  /// Hands the app delegate's registration failure to the waiting callers.
  /// - Parameter error: The failure.
  public func fail(_ error: any Error) { finish(.failure(error)) }

  private func finish(_ result: Result<Data, any Error>) {
    let waiters = pending.withLock { state -> [CheckedContinuation<Data, any Error>] in
      let waiters = Array(state.waiters.values)
      state.waiters = [:]
      if waiters.isEmpty { state.early = result }
      return waiters
    }
    for waiter in waiters { waiter.resume(with: result) }
  }

  /// Ends one wait that got no answer in time.
  private func expire(_ id: Int) {
    guard let waiter = pending.withLock({ $0.waiters.removeValue(forKey: id) }) else { return }
    waiter.resume(
      throwing: NotificationPreferencesError(
        .deviceTokenUnavailable,
        "the system gave no push token within \(timeout): check the push entitlement and "
          + "that the app delegate hands the token over"))
  }
}
