import Foundation
import ServerBeeModels

/// `KeychainCredentialStore`'s logic over any ``KeychainItems``: where each slot lives, how a
/// value is read, written and listed, what each status means, and the rollback of a failed
/// batch. Portable: tested on Linux against a fake Keychain with the store contract tests.
///
/// The Keychain has no transactions: ``commit(_:)`` reads the previous values first, applies
/// the changes, and restores the previous values if a change fails. That restores the state
/// after an error, but a process killed in the middle of a batch can leave it half applied.
struct KeychainItemStore: CredentialStore {
  /// The prefix of every item's service, for example the app's bundle identifier.
  let service: String
  /// The access group shared with the notification extension (team prefix included).
  let sharedAccessGroup: String
  /// The access group of app-private items; `nil` uses the app's default group.
  let appAccessGroup: String?
  let items: any KeychainItems

  func data(forKey key: CredentialKey, in group: AccessGroup) throws -> Data? {
    try key.validate()
    return try read(CredentialSlot(key, in: group))
  }

  func keys(in group: AccessGroup) throws -> [CredentialKey] {
    let (status, accounts) = items.copyAccounts(query(group, account: nil))
    if status == .itemNotFound { return [] }
    guard status == .success else { throw Self.error(status, "listing group '\(group)'") }
    return accounts.map { CredentialKey($0) }.sorted()
  }

  func commit(_ batch: CredentialBatch) throws {
    try batch.validate()
    var previous: [CredentialSlot: Data?] = [:]
    for change in batch.changes where previous.index(forKey: change.slot) == nil {
      previous.updateValue(try read(change.slot), forKey: change.slot)
    }
    var touched: [CredentialSlot] = []
    do {
      for change in batch.changes {
        touched.append(change.slot)
        switch change {
        case .set(let data, _, _): try write(data, to: change.slot)
        case .remove: try delete(change.slot)
        case .add(let data, _, _):
          if try read(change.slot) == nil { try write(data, to: change.slot) }
        }
      }
    } catch {
      for slot in Set(touched) {
        guard let value = previous[slot] else { continue }
        if let value { try? write(value, to: slot) } else { try? delete(slot) }
      }
      throw error
    }
  }

  /// The query of a group's items (`account` `nil`) or of one item: the service is
  /// `<service>.<group raw value>`; shared items name the shared access group, app-private
  /// items the app's group when one is configured.
  func query(_ group: AccessGroup, account: String?) -> KeychainItemQuery {
    let accessGroup: String? =
      switch group {
      case .appPrivate: appAccessGroup
      case .sharedWithExtension: sharedAccessGroup
      }
    return KeychainItemQuery(
      service: "\(service).\(group.rawValue)", accessGroup: accessGroup, account: account)
  }

  private func read(_ slot: CredentialSlot) throws(SecureStoreError) -> Data? {
    let (status, data) = items.copyData(query(slot.group, account: slot.key.rawValue))
    if status == .itemNotFound { return nil }
    guard status == .success else { throw Self.error(status, "reading '\(slot.key)'") }
    guard let data else {
      throw SecureStoreError(.storageFailed, "reading '\(slot.key)': unexpected result type")
    }
    return data
  }

  private func write(_ data: Data, to slot: CredentialSlot) throws(SecureStoreError) {
    let item = query(slot.group, account: slot.key.rawValue)
    var status = items.update(item, data: data)
    if status == .itemNotFound {
      status = items.add(item, data: data)
      // Another process (the extension) added the item in between: update it instead.
      if status == .duplicateItem { status = items.update(item, data: data) }
    }
    guard status == .success else { throw Self.error(status, "writing '\(slot.key)'") }
  }

  private func delete(_ slot: CredentialSlot) throws(SecureStoreError) {
    let status = items.delete(query(slot.group, account: slot.key.rawValue))
    guard status == .success || status == .itemNotFound else {
      throw Self.error(status, "removing '\(slot.key)'")
    }
  }

  /// The store error for a status: `unavailable` before the first unlock, `readOnly`,
  /// `diskFull`, else `storageFailed`, each with the operation and the system's text.
  static func error(_ status: KeychainStatus, _ operation: String) -> SecureStoreError {
    switch status {
    case .unavailable:
      SecureStoreError(.unavailable, "\(operation): the Keychain is locked until the first unlock")
    case .readOnly: SecureStoreError(.readOnly, "\(operation): the Keychain is read-only")
    case .diskFull: SecureStoreError(.diskFull, "\(operation): the disk is full")
    case .other(let code, let text):
      SecureStoreError(.storageFailed, "\(operation): \(text) (OSStatus \(code))")
    case .success, .itemNotFound, .duplicateItem:
      SecureStoreError(.storageFailed, "\(operation): unexpected Keychain status \(status)")
    }
  }
}
