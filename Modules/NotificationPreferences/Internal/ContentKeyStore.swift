import Foundation
import PushEnvelopeCrypto
import SecureStore
import ServerBeeModels
import ServerBeeTransport

/// The one active push content key of the device (wire contract v2 §4.7), in the
/// extension-shared group so the notification extension can open envelopes.
struct ContentKeyStore: Sendable {
  /// The account name iOS uses for the key item.
  static let key: CredentialKey = "serverbee_active_push_content_key"

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
  func keyCreatingIfNeeded(for identity: SessionIdentity) throws -> PushContentKey {
    if let existing = try key(scope: identity.scope),
      existing.deploymentID == identity.server.url.absoluteString,
      existing.userID == identity.user.id, existing.installationID == identity.installationID
    {
      return existing
    }
    let key = try generator.makeKey(
      deploymentID: identity.server.url.absoluteString, userID: identity.user.id,
      installationID: identity.installationID, scope: identity.scope)
    try store.setValue(key, forKey: Self.key, in: .sharedWithExtension)
    return key
  }

  func read() throws -> PushContentKey? {
    try store.value(PushContentKey.self, forKey: Self.key, in: .sharedWithExtension)
  }

  func remove() throws {
    try store.removeValue(forKey: Self.key, in: .sharedWithExtension)
  }
}
