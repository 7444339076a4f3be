import Foundation
import PushEnvelopeCrypto
import SecureStore
import ServerBeeModels
import ServerBeeTransport

/// The one active push content key of the device (Protocol/Push.md §3.7), in the
/// extension-shared group (`CredentialKey.pushContentKey`) so the notification extension can
/// open envelopes.
struct ContentKeyStore: Sendable {
  let store: any CredentialStore
  let generator: PushContentKeyGenerator

  /// The stored key when it belongs to `scope`; a key of another scope is removed (replaced,
  /// never reused).
  func key(scope: String) throws -> PushContentKey? {
    guard let stored = try read() else { return nil }
    guard stored.scope == scope else {
      try remove()
      return nil
    }
    return stored
  }

  /// The key of the identity's scope, created and stored first when there is none.
  ///
  /// Creation is an add-if-absent store write, so any number of callers (several processes on
  /// one store included) end with one key: the first one stored. The login must still be the
  /// one the shared group names (`CredentialKey.currentLoginScope`, when the auth client keeps
  /// it): a key is never created for a login that has just ended.
  func keyCreatingIfNeeded(for identity: SessionIdentity) throws -> PushContentKey {
    if let current = try store.value(
      String.self, forKey: .currentLoginScope, in: .sharedWithExtension),
      current != identity.scope
    {
      throw NotificationPreferencesError(.notSignedIn, "the login changed before its key was made")
    }
    if let existing = try key(scope: identity.scope) { return existing }
    let stored = try store.valueAddingIfAbsent(
      forKey: .pushContentKey, in: .sharedWithExtension
    ) {
      try generator.makeKey(
        deploymentID: identity.server.url.absoluteString, userID: identity.user.id,
        installationID: identity.installationID, scope: identity.scope)
    }
    guard stored.scope == identity.scope else {
      throw NotificationPreferencesError(
        .notSignedIn, "another login's content key was stored at the same time")
    }
    return stored
  }

  func read() throws -> PushContentKey? {
    try store.value(PushContentKey.self, forKey: .pushContentKey, in: .sharedWithExtension)
  }

  func remove() throws {
    try store.removeValue(forKey: .pushContentKey, in: .sharedWithExtension)
  }
}
