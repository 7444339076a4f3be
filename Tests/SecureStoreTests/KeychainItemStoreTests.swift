import Foundation
import ServerBeeModels
import Testing

@testable import SecureStore

/// `KeychainCredentialStore`'s rules, on Linux, over a fake Keychain: where each group's items
/// live, what each status becomes, and the rollback of a failed batch. (The store contract
/// suite runs over the same logic as `StoreKind.keychainLogic`.)
@Suite(.timeLimit(.minutes(5))) struct KeychainItemStoreTests {
  let keychain = FakeKeychainItems()

  func store(appAccessGroup: String? = nil) -> KeychainItemStore {
    KeychainItemStore(
      service: "dev.serverbee.app", sharedAccessGroup: "ABCDE12345.dev.serverbee.shared",
      appAccessGroup: appAccessGroup, items: keychain)
  }

  @Test func sharedItemsUseTheSharedGroupAndPrivateItemsTheAppDefault() throws {
    let store = store()
    try store.setData(Data([1]), forKey: "auth.login", in: .appPrivate)
    try store.setData(Data([2]), forKey: "push.content-key", in: .sharedWithExtension)
    #expect(
      keychain.items == [
        .init(service: "dev.serverbee.app.app-private", accessGroup: nil, account: "auth.login"):
          Data([1]),
        .init(
          service: "dev.serverbee.app.shared", accessGroup: "ABCDE12345.dev.serverbee.shared",
          account: "push.content-key"): Data([2]),
      ])
  }

  @Test func aConfiguredAppGroupHoldsThePrivateItems() throws {
    try store(appAccessGroup: "ABCDE12345.dev.serverbee.app")
      .setData(Data([1]), forKey: "auth.login", in: .appPrivate)
    #expect(keychain.items.keys.map(\.accessGroup) == ["ABCDE12345.dev.serverbee.app"])
  }

  @Test func aLockedKeychainIsUnavailableNotMissing() throws {
    keychain.script("copy", .unavailable)
    let error = #expect(throws: SecureStoreError.self) {
      _ = try store().data(forKey: "auth.login", in: .appPrivate)
    }
    #expect(error?.code == .unavailable)
    #expect(error?.message == "reading 'auth.login': the Keychain is locked until the first unlock")
  }

  @Test func otherStatusesKeepTheSystemTextAndCode() throws {
    keychain.script("update", .other(-34018, "A required entitlement isn't present."))
    let error = #expect(throws: SecureStoreError.self) {
      try store().setData(Data([1]), forKey: "auth.login", in: .appPrivate)
    }
    #expect(error?.code == .storageFailed)
    #expect(
      error?.message
        == "writing 'auth.login': A required entitlement isn't present. (OSStatus -34018)")
  }

  @Test func anItemTheExtensionAddedMeanwhileIsUpdatedNotDuplicated() throws {
    // update: not found; add: the extension got there first; update again: success.
    keychain.raceNextAdd(with: Data([1]))
    let store = store()
    try store.setData(Data([9]), forKey: "push.content-key", in: .sharedWithExtension)
    #expect(keychain.calls.filter { $0 != "copy" } == ["update", "add", "update"])
    #expect(try store.data(forKey: "push.content-key", in: .sharedWithExtension) == Data([9]))
  }

  @Test func aFailedBatchRestoresEveryValueItTouched() throws {
    let store = store()
    try store.setData(Data([1]), forKey: "auth.login", in: .appPrivate)
    let before = keychain.items
    // The first change (an update of the existing login) succeeds, the new key's add fails.
    keychain.script("add", .diskFull)
    let error = #expect(throws: SecureStoreError.self) {
      try store.commit(
        CredentialBatch([
          .set(Data([2]), key: "auth.login", group: .appPrivate),
          .set(Data([3]), key: "auth.journal", group: .appPrivate),
        ]))
    }
    #expect(error?.code == .diskFull)
    #expect(keychain.items == before)
  }

  @Test func listingAGroupSeesOnlyThatGroup() throws {
    let store = store()
    try store.setData(Data([1]), forKey: "b", in: .appPrivate)
    try store.setData(Data([1]), forKey: "a", in: .appPrivate)
    try store.setData(Data([1]), forKey: "c", in: .sharedWithExtension)
    #expect(try store.keys(in: .appPrivate) == ["a", "b"])
    #expect(try store.keys(in: .sharedWithExtension) == ["c"])
  }
}
