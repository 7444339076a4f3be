import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestHarness
import Testing

/// The behaviour every ``CredentialStore`` shares, run against each store.
@Suite(.timeLimit(.minutes(5))) struct CredentialStoreContractTests {
  @Test(arguments: StoreKind.allCases) func rawBytesRoundTrip(kind: StoreKind) throws {
    let store = try StoreFixture(kind).store
    let value = Data((0...255).map { UInt8($0) })
    try store.setData(value, forKey: "auth.refresh-token", in: .appPrivate)
    #expect(try store.data(forKey: "auth.refresh-token", in: .appPrivate) == value)
    try store.setData(Data(text: "second"), forKey: "auth.refresh-token", in: .appPrivate)
    #expect(try store.data(forKey: "auth.refresh-token", in: .appPrivate) == Data(text: "second"))
  }

  @Test(arguments: StoreKind.allCases) func emptyValueIsStoredAndDiffersFromMissing(
    kind: StoreKind
  ) throws {
    let store = try StoreFixture(kind).store
    #expect(try store.data(forKey: "empty", in: .appPrivate) == nil)
    try store.setData(Data(), forKey: "empty", in: .appPrivate)
    #expect(try store.data(forKey: "empty", in: .appPrivate) == Data())
  }

  @Test(arguments: StoreKind.allCases) func typedValuesRoundTrip(kind: StoreKind) throws {
    let store = try StoreFixture(kind).store
    let record = SampleLoginRecord(
      userID: "u-1", refreshToken: Data([0, 1, 2, 255]),
      issuedAt: Date(timeIntervalSinceReferenceDate: 123_456.789_012), scopes: nil)
    try store.setValue(record, forKey: "auth.login", in: .appPrivate)
    #expect(
      try store.value(SampleLoginRecord.self, forKey: "auth.login", in: .appPrivate) == record)
    #expect(try store.value(SampleLoginRecord.self, forKey: "auth.other", in: .appPrivate) == nil)
  }

  @Test(arguments: StoreKind.allCases) func decodingFailureNamesThePathButNotTheContent(
    kind: StoreKind
  ) throws {
    let store = try StoreFixture(kind).store
    try store.setData(
      Data(text: #"{"userID":"secret-user","refreshToken":"c2VjcmV0","issuedAt":"x"}"#),
      forKey: "auth.login", in: .appPrivate)
    let error = #expect(throws: SecureStoreError.self) {
      try store.value(SampleLoginRecord.self, forKey: "auth.login", in: .appPrivate)
    }
    #expect(error?.code == .decodingFailed)
    #expect(error?.message.contains("issuedAt") == true)
    #expect(error?.message.contains("secret") == false)
  }

  @Test(arguments: StoreKind.allCases) func groupsAreIsolated(kind: StoreKind) throws {
    let store = try StoreFixture(kind).store
    try store.setData(Data(text: "private"), forKey: "same", in: .appPrivate)
    try store.setData(Data(text: "shared"), forKey: "same", in: .sharedWithExtension)
    try store.setData(Data(text: "only private"), forKey: "auth.token", in: .appPrivate)
    #expect(try store.data(forKey: "same", in: .appPrivate) == Data(text: "private"))
    #expect(try store.data(forKey: "same", in: .sharedWithExtension) == Data(text: "shared"))
    #expect(try store.data(forKey: "auth.token", in: .sharedWithExtension) == nil)
    try store.removeValue(forKey: "same", in: .sharedWithExtension)
    #expect(try store.data(forKey: "same", in: .appPrivate) == Data(text: "private"))
    #expect(try store.keys(in: .sharedWithExtension).isEmpty)
  }

  @Test(arguments: StoreKind.allCases) func keysListsOneGroupSortedByName(kind: StoreKind) throws {
    let store = try StoreFixture(kind).store
    #expect(try store.keys(in: .appPrivate).isEmpty)
    for name in ["b", "a", "c.2", "c.10"] {
      try store.setData(Data(text: name), forKey: CredentialKey(name), in: .appPrivate)
    }
    try store.setData(Data(text: "k"), forKey: "push.content-key", in: .sharedWithExtension)
    #expect(try store.keys(in: .appPrivate) == ["a", "b", "c.10", "c.2"])
    #expect(try store.keys(in: .sharedWithExtension) == ["push.content-key"])
  }

  @Test(arguments: StoreKind.allCases) func removeDeletesOnlyThatKey(kind: StoreKind) throws {
    let store = try StoreFixture(kind).store
    try store.setData(Data(text: "1"), forKey: "one", in: .appPrivate)
    try store.setData(Data(text: "2"), forKey: "two", in: .appPrivate)
    try store.removeValue(forKey: "one", in: .appPrivate)
    try store.removeValue(forKey: "never-stored", in: .appPrivate)
    #expect(try store.data(forKey: "one", in: .appPrivate) == nil)
    #expect(try store.data(forKey: "two", in: .appPrivate) == Data(text: "2"))
    #expect(try store.keys(in: .appPrivate) == ["two"])
  }

  @Test(arguments: StoreKind.allCases) func batchAppliesInOrderAndLaterChangesWin(
    kind: StoreKind
  ) throws {
    let store = try StoreFixture(kind).store
    try store.setData(Data(text: "pending logout"), forKey: "auth.journal", in: .appPrivate)
    var batch = CredentialBatch()
    try batch.setValue(
      SampleLoginRecord(userID: "u", refreshToken: Data([1]), issuedAt: Date(), scopes: ["a"]),
      forKey: "auth.login", in: .appPrivate)
    batch.removeValue(forKey: "auth.journal", in: .appPrivate)
    batch.setData(Data(text: "first"), forKey: "x", in: .sharedWithExtension)
    batch.setData(Data(text: "last"), forKey: "x", in: .sharedWithExtension)
    batch.setData(Data(text: "gone"), forKey: "y", in: .appPrivate)
    batch.removeValue(forKey: "y", in: .appPrivate)
    try store.commit(batch)
    #expect(try store.keys(in: .appPrivate) == ["auth.login"])
    #expect(try store.data(forKey: "x", in: .sharedWithExtension) == Data(text: "last"))
    try store.commit(CredentialBatch())
    #expect(try store.keys(in: .appPrivate) == ["auth.login"])
  }

  @Test(arguments: StoreKind.allCases) func invalidBatchChangesNothing(kind: StoreKind) throws {
    let store = try StoreFixture(kind).store
    try store.setData(Data(text: "before"), forKey: "kept", in: .appPrivate)
    var batch = CredentialBatch()
    batch.setData(Data(text: "after"), forKey: "kept", in: .appPrivate)
    batch.removeValue(forKey: "kept", in: .appPrivate)
    batch.setData(Data(text: "new"), forKey: "new", in: .appPrivate)
    batch.setData(Data(text: "bad"), forKey: "", in: .appPrivate)
    expectStoreError(.invalidKey) { try store.commit(batch) }
    #expect(try store.data(forKey: "kept", in: .appPrivate) == Data(text: "before"))
    #expect(try store.keys(in: .appPrivate) == ["kept"])
  }

  /// A key name a store must refuse, with a printable label for the test report.
  struct InvalidKey: CustomTestStringConvertible, Sendable {
    var label: String
    var name: String
    var testDescription: String { label }
  }

  static let invalidKeys: [InvalidKey] = [
    InvalidKey(label: "empty", name: ""),
    InvalidKey(
      label: "257 bytes", name: String(repeating: "k", count: CredentialKey.maximumLength + 1)),
    InvalidKey(label: "NUL", name: "nul\u{0}inside"),
    InvalidKey(label: "newline", name: "line\nbreak"),
  ]

  @Test(arguments: StoreKind.allCases, invalidKeys) func invalidKeysAreRejected(
    kind: StoreKind, invalid: InvalidKey
  ) throws {
    let store = try StoreFixture(kind).store
    let key = CredentialKey(invalid.name)
    expectStoreError(.invalidKey) { try store.setData(Data(), forKey: key, in: .appPrivate) }
    expectStoreError(.invalidKey) { _ = try store.data(forKey: key, in: .appPrivate) }
    expectStoreError(.invalidKey) { try store.removeValue(forKey: key, in: .appPrivate) }
  }

  @Test(arguments: StoreKind.allCases) func longestKeyAndLargestValueAreAccepted(kind: StoreKind)
    throws
  {
    let store = try StoreFixture(kind).store
    let key = CredentialKey(String(repeating: "é", count: CredentialKey.maximumLength / 2))
    let value = Data(repeating: 7, count: CredentialBatch.maximumValueSize)
    try store.setData(value, forKey: key, in: .appPrivate)
    #expect(try store.data(forKey: key, in: .appPrivate) == value)
    expectStoreError(.valueTooLarge) {
      try store.setData(value + [0], forKey: "too-large", in: .appPrivate)
    }
    #expect(try store.keys(in: .appPrivate) == [key])
  }

  /// 64 threads each commit 50 batches; afterwards every value is exactly the last one written.
  ///
  /// Each writer is a thread of its own (`offPool`): the store blocks (fsync, its lock), and 64
  /// blocking tasks on the cooperative pool would hold every pool thread for the whole test,
  /// starving every other suite running in parallel.
  @Test(arguments: StoreKind.allCases) func concurrentWritersFromManyThreadsAllLand(
    kind: StoreKind
  ) async throws {
    let fixture = try StoreFixture(kind)
    let store = fixture.store
    let tasks = 64
    let writes = 50
    // `#expect` needs the test's task, so the threads return what they found wrong.
    let misreads = try await withThrowingTaskGroup(of: [String].self) { group in
      for task in 0..<tasks {
        group.addTask {
          try await offPool { try Self.write(task: task, writes: writes, to: store) }
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    #expect(misreads.isEmpty)
    #expect(
      try await offPool { try Self.mismatches(tasks: tasks, writes: writes, in: store) } == [])
  }

  /// Commits the batches of one writer; returns the keys that did not read back as written.
  private static func write(task: Int, writes: Int, to store: any CredentialStore) throws
    -> [String]
  {
    var misreads: [String] = []
    for write in 0..<writes {
      var batch = CredentialBatch()
      batch.setData(
        Data(text: "\(task):\(write)"), forKey: CredentialKey("w.\(task).\(write)"),
        in: .appPrivate)
      batch.setData(
        Data(text: "\(write)"), forKey: CredentialKey("last.\(task)"), in: .sharedWithExtension)
      try store.commit(batch)
      // Reads interleave with the other threads' writes.
      if try store.data(forKey: CredentialKey("w.\(task).\(write)"), in: .appPrivate)
        != Data(text: "\(task):\(write)")
      {
        misreads.append("w.\(task).\(write)")
      }
    }
    return misreads
  }

  /// The keys whose final value is not the last one written, plus any wrong key count.
  private static func mismatches(tasks: Int, writes: Int, in store: any CredentialStore) throws
    -> [String]
  {
    var wrong: [String] = []
    if try store.keys(in: .appPrivate).count != tasks * writes { wrong.append("app key count") }
    if try store.keys(in: .sharedWithExtension).count != tasks { wrong.append("shared key count") }
    for task in 0..<tasks {
      if try store.data(forKey: CredentialKey("last.\(task)"), in: .sharedWithExtension)
        != Data(text: "\(writes - 1)")
      {
        wrong.append("last.\(task)")
      }
      for write in 0..<writes {
        let key = CredentialKey("w.\(task).\(write)")
        if try store.data(forKey: key, in: .appPrivate) != Data(text: "\(task):\(write)") {
          wrong.append(key.rawValue)
        }
      }
    }
    return wrong
  }
}
