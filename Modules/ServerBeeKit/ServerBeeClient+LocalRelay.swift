public import Foundation
public import NotificationPreferences
public import PushEnvelopeCrypto

extension ServerBeeClient {
  /// A listener for this installation's notifications as a local device of a
  /// `serverbee-relay`, over the client's store, HTTP and WebSocket (so under its TLS trust).
  ///
  /// Call it after `notifications.enable()`; each push arrives opened with the current login's
  /// content key and rendered, each event once (see `LocalRelayDeviceListener`).
  ///
  /// ```swift
  /// let listener = try await client.localRelayListener(language: .english)
  /// for try await event in listener.events() {
  ///   if case .push(let push) = event {
  ///     print("\(push.notification.title): \(push.notification.body)")
  ///   }
  /// }
  /// ```
  /// - Parameters:
  ///   - relay: The relay's base URL; `nil` uses `Configuration.localRelayURL`, else the relay
  ///     that issued the stored device token.
  ///   - language: The language of the rendered text.
  /// - Returns: The listener; nothing connects until its `events()` are iterated.
  /// - Throws: `NotificationPreferencesError`: `invalidRelayURL` when no relay is named and no
  ///   device of a relay is stored, `storageFailed`, or the relay's error for a token it was
  ///   asked for.
  public func localRelayListener(relay: URL? = nil, language: PushNotificationLanguage)
    async throws -> LocalRelayDeviceListener
  {
    try await LocalRelayDeviceListener(
      store: store, relay: relay ?? localRelayURL, http: http, webSocket: webSocket,
      language: language)
  }
}
