public import ServerBeeModels

/// The names an app and its notification extension share in the
/// ``AccessGroup/sharedWithExtension`` group, defined once for every module.
extension CredentialKey {
  /// The push content key of the signed-in login (`PushContentKey` JSON, Protocol/Push.md §3.7),
  /// written by the notification settings when they register, read by the notification
  /// extension and the tap router.
  public static let pushContentKey: CredentialKey = "serverbee_active_push_content_key"

  /// The scope (`SessionIdentity.scope`, no secret) of the login signed in now, written and
  /// removed by the auth client in the same store write as the login itself. A content key
  /// opens payloads only while its scope is this one, so a key that outlived its login (a
  /// failed removal, another process in between) still opens nothing.
  public static let currentLoginScope: CredentialKey = "serverbee_current_login_scope"
}

extension CredentialStore {
  /// The push content key of the login signed in now: the stored key when its scope is the
  /// shared group's current-login scope, else `nil` (no key, nobody signed in, or a key of an
  /// earlier login).
  ///
  /// ```swift
  /// guard let key = try store.currentPushContentKey() else { return fallback }
  /// let content = try PushEnvelopeOpener().open(apnsPayload: payload, with: key, for: .delivery)
  /// ```
  /// - Returns: The key, or `nil`.
  /// - Throws: ``SecureStoreError`` when the store cannot be read.
  public func currentPushContentKey() throws -> PushContentKey? {
    guard
      let key = try value(PushContentKey.self, forKey: .pushContentKey, in: .sharedWithExtension),
      let scope = try value(String.self, forKey: .currentLoginScope, in: .sharedWithExtension),
      key.scope == scope
    else { return nil }
    return key
  }
}
