import SecureStore
import ServerBeeModels
import ServerBeeTransport

extension AuthClient {
  /// Adds to `batch` the changes that go with replacing the stored login `old` by `new`
  /// (`nil`: no login): when the login ends or the signed-in scope changes, every login-scoped
  /// value goes and the shared group's scope marker follows; a refresh of the same login adds
  /// nothing.
  func addLoginScopeChanges(
    to batch: inout CredentialBatch, from old: LoginRecord?, to new: LoginRecord?
  ) throws {
    let oldScope = old.flatMap { $0.status == .active ? $0.identity.scope : nil }
    let newScope = new.flatMap { $0.status == .active ? $0.identity.scope : nil }
    // Ending a login always clears (a value stored while it waited for recovery goes too).
    guard new == nil || oldScope != newScope else { return }
    for value in configuration.loginScopedValues {
      batch.removeValue(forKey: value.key, in: value.group)
    }
    if let newScope {
      try batch.setValue(newScope, forKey: .currentLoginScope, in: .sharedWithExtension)
    } else {
      batch.removeValue(forKey: .currentLoginScope, in: .sharedWithExtension)
    }
  }

  /// At restore: brings the shared group in line with the stored login. Values a signed-out
  /// installation still holds (an earlier version kept the content key after logout) are
  /// removed; an active login whose marker is missing (stored by an earlier version) gets it.
  func reconcileLoginScope() throws {
    let shared = try storeCall("read the shared group") { try store.keys(in: .sharedWithExtension) }
    let marker = try storeCall("read the login scope") {
      try store.value(String.self, forKey: .currentLoginScope, in: .sharedWithExtension)
    }
    var batch = CredentialBatch()
    if let record, record.status == .active {
      guard marker != record.identity.scope else { return }
      if marker != nil {
        // The marker names another login: whatever it left belongs to nobody now.
        for value in configuration.loginScopedValues {
          batch.removeValue(forKey: value.key, in: value.group)
        }
      }
      try storeCall("save the login scope") {
        try batch.setValue(
          record.identity.scope, forKey: .currentLoginScope, in: .sharedWithExtension)
      }
    } else {
      let privateKeys = try storeCall("read the login-scoped values") {
        try store.keys(in: .appPrivate)
      }
      let held = configuration.loginScopedValues.filter {
        ($0.group == .sharedWithExtension ? shared : privateKeys).contains($0.key)
      }
      guard marker != nil || !held.isEmpty else { return }
      for value in held { batch.removeValue(forKey: value.key, in: value.group) }
      batch.removeValue(forKey: .currentLoginScope, in: .sharedWithExtension)
    }
    try storeCall("remove the values of an ended login") { try store.commit(batch) }
  }
}
