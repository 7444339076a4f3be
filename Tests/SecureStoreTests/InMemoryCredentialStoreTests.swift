import Foundation
import SecureStore
import ServerBeeModels
import Testing

@Suite struct InMemoryCredentialStoreTests {
  @Test func startsWithTheGivenValues() throws {
    let store = InMemoryCredentialStore(values: [.sharedWithExtension: ["push.key": Data([1])]])
    #expect(try store.data(forKey: "push.key", in: .sharedWithExtension) == Data([1]))
    #expect(try store.keys(in: .appPrivate).isEmpty)
  }

  @Test func injectedWriteFailureThrowsAndChangesNothing() throws {
    let store = InMemoryCredentialStore()
    try store.setData(Data(text: "old"), forKey: "auth.login", in: .appPrivate)
    store.failWrites(with: SecureStoreError(.diskFull, "simulated"))
    var batch = CredentialBatch()
    batch.setData(Data(text: "new"), forKey: "auth.login", in: .appPrivate)
    batch.removeValue(forKey: "auth.login", in: .appPrivate)
    expectStoreError(.diskFull) { try store.commit(batch) }
    expectStoreError(.diskFull) { try store.removeValue(forKey: "auth.login", in: .appPrivate) }
    #expect(store.allValues == [.appPrivate: ["auth.login": Data(text: "old")]])
    store.failWrites(with: nil)
    try store.commit(batch)
    #expect(store.allValues.isEmpty)
  }

  @Test func anAddChangeKeepsAStoredValue() throws {
    let store = InMemoryCredentialStore()
    #expect(try store.valueAddingIfAbsent(forKey: "token", in: .appPrivate) { "first" } == "first")
    #expect(try store.valueAddingIfAbsent(forKey: "token", in: .appPrivate) { "second" } == "first")
  }
}
