import Foundation
public import SecureStore
public import ServerBeeModels

/// The device token of a Linux or desktop device registered with a `serverbee-relay`: 32 random
/// bytes as lowercase hex, generated once and kept in the credential store's app-private group.
///
/// The relay's local-device provider delivers to this token instead of APNs, so a command-line
/// client can receive encrypted pushes end to end.
///
/// ```swift
/// let tokens = LocalRelayDeviceTokenProvider(store: store)
/// let token = try await tokens.deviceToken()  // the same on every launch
/// relayProvider.register(deviceToken: token.hex, environment: token.environment)
/// ```
public struct LocalRelayDeviceTokenProvider: PushDeviceTokenProvider {
  /// Where the token is kept (app-private group).
  public static let storeKey: CredentialKey = "push.local-relay-device-token"

  private let store: any CredentialStore
  private let environment: PushEnvironment
  private let randomBytes: @Sendable (Int) throws -> [UInt8]

  /// Creates the provider with the system's random generator.
  /// - Parameters:
  ///   - store: The credential store that keeps the token.
  ///   - environment: The environment to register; `sandbox` by default.
  public init(store: any CredentialStore, environment: PushEnvironment = .sandbox) {
    self.init(
      store: store, environment: environment,
      randomBytes: { count in
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
      })
  }

  /// Creates the provider with an injected random source (tests).
  /// - Parameters:
  ///   - store: The credential store that keeps the token.
  ///   - environment: The environment to register.
  ///   - randomBytes: Returns the requested number of random bytes (32 per token).
  public init(
    store: any CredentialStore, environment: PushEnvironment,
    randomBytes: @escaping @Sendable (Int) throws -> [UInt8]
  ) {
    self.store = store
    self.environment = environment
    self.randomBytes = randomBytes
  }

  /// The stored token, or a new one stored first.
  /// - Returns: The token with the configured environment.
  /// - Throws: ``NotificationPreferencesError`` (`storageFailed`, `deviceTokenUnavailable`).
  public func deviceToken() async throws -> PushDeviceToken {
    // On the store thread, not the cooperative pool; concurrent callers run one after another
    // there, so they all get the token the first one stored.
    try await BlockingSerialExecutor.shared.run { [self] in try loadOrCreate() }
  }

  private func loadOrCreate() throws -> PushDeviceToken {
    do {
      if let stored = try store.value(String.self, forKey: Self.storeKey, in: .appPrivate),
        RegistrationRules.isLowercaseHex(stored, evenLengthIn: 2...1024)
      {
        return PushDeviceToken(hex: stored, environment: environment)
      }
    } catch {
      throw NotificationPreferencesError(
        .storageFailed, "the local device token could not be read",
        underlying: error)
    }
    let bytes = try randomBytes(32)
    guard bytes.count == 32 else {
      throw NotificationPreferencesError(
        .deviceTokenUnavailable, "the random source returned the wrong length")
    }
    let token = PushDeviceToken(bytes: bytes, environment: environment)
    do {
      try store.setValue(token.hex, forKey: Self.storeKey, in: .appPrivate)
    } catch {
      throw NotificationPreferencesError(
        .storageFailed, "the local device token could not be stored",
        underlying: error)
    }
    return token
  }
}
