import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import Testing

@testable import SecureStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite(.timeLimit(.minutes(5))) struct EncryptedSQLiteCredentialStoreTests {
  let temporary: ScratchDirectory
  let directory: URL

  init() throws {
    temporary = try ScratchDirectory()
    directory = temporary.url.appendingPathComponent("store", isDirectory: true)
  }

  var databaseURL: URL {
    directory.appendingPathComponent(EncryptedSQLiteCredentialStore.databaseFileName)
  }
  var keyFileURL: URL {
    directory.appendingPathComponent(EncryptedSQLiteCredentialStore.keyFileName)
  }

  func makeStore(
    _ configuration: EncryptedSQLiteCredentialStore.Configuration = .init(),
    pragmas: [String] = []
  ) throws -> EncryptedSQLiteCredentialStore {
    try EncryptedSQLiteCredentialStore(
      directory: directory, configuration: configuration, connectionPragmas: pragmas)
  }

  /// Writes the key file as an operator would restore it: the given bytes, mode 0600.
  func writeKeyFile(_ bytes: Data) throws {
    try bytes.write(to: keyFileURL)
    #expect(chmod(keyFileURL.path, 0o600) == 0)
  }

  func mode(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return try #require(attributes[.posixPermissions] as? Int)
  }

  @Test func valuesSurviveReopening() throws {
    try makeStore().setData(Data(text: "kept"), forKey: "auth.login", in: .appPrivate)
    #expect(try makeStore().data(forKey: "auth.login", in: .appPrivate) == Data(text: "kept"))
  }

  @Test func filesAreOwnerOnlyAndTheKeyFileHas32Bytes() throws {
    let store = try makeStore()
    try store.setData(Data(text: "v"), forKey: "k", in: .appPrivate)
    #expect(try mode(of: directory) == 0o700)
    #expect(try mode(of: keyFileURL) == 0o600)
    #expect(try mode(of: databaseURL) == 0o600)
    #expect(try Data(contentsOf: keyFileURL).count == 32)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.isEmpty)
  }

  /// The CSQLite shim proof: the database really runs in WAL mode, schema version 1.
  @Test func databaseUsesWriteAheadLoggingAndRecordsItsSchemaVersion() throws {
    let store = try makeStore()
    try store.setData(Data(text: "v"), forKey: "k", in: .appPrivate)
    let raw = try RawDatabase(databaseURL)
    #expect(try raw.query("PRAGMA journal_mode") == ["wal"])
    #expect(try raw.query("PRAGMA user_version") == ["1"])
    #expect(FileManager.default.fileExists(atPath: databaseURL.path + "-wal"))
  }

  @Test func storedBytesHoldNeitherPlaintextNorTheSameCiphertextTwice() throws {
    let store = try makeStore()
    let secret = "refresh-token-0123456789abcdef"
    try store.setData(Data(text: secret), forKey: "a", in: .appPrivate)
    try store.setData(Data(text: secret), forKey: "b", in: .appPrivate)
    let raw = try RawDatabase(databaseURL)
    let first = try raw.sealed(group: "app-private", name: "a")
    let second = try raw.sealed(group: "app-private", name: "b")
    #expect(first.count == 1 + 12 + secret.utf8.count + 16)
    #expect(first[0] == 1)
    #expect(first != second)
    try raw.query("PRAGMA wal_checkpoint(TRUNCATE)")
    for url in [databaseURL, URL(fileURLWithPath: databaseURL.path + "-wal")] {
      let bytes = try Data(contentsOf: url)
      #expect(bytes.range(of: Data(text: secret)) == nil)
    }
  }

  @Test func flippedByteIsReportedAsTamperedAndLeftInPlace() throws {
    let store = try makeStore()
    try store.setData(Data(text: "token"), forKey: "auth.token", in: .appPrivate)
    try store.setData(Data(text: "other"), forKey: "auth.other", in: .appPrivate)
    let raw = try RawDatabase(databaseURL)
    var sealed = try raw.sealed(group: "app-private", name: "auth.token")
    sealed[sealed.count / 2] ^= 0x01
    try raw.setSealed(sealed, group: "app-private", name: "auth.token")

    expectStoreError(.tamperedValue) { _ = try store.data(forKey: "auth.token", in: .appPrivate) }
    #expect(try raw.sealed(group: "app-private", name: "auth.token") == sealed)
    #expect(try store.data(forKey: "auth.other", in: .appPrivate) == Data(text: "other"))
    #expect(try store.keys(in: .appPrivate) == ["auth.other", "auth.token"])
    try store.setData(Data(text: "fresh"), forKey: "auth.token", in: .appPrivate)
    #expect(try store.data(forKey: "auth.token", in: .appPrivate) == Data(text: "fresh"))
  }

  @Test(arguments: [
    ("truncated", [UInt8](repeating: 1, count: 20)),
    ("unknown old version", [0] + [UInt8](repeating: 0, count: 40)),
  ])
  func damagedLayoutIsReportedAsTampered(label: String, bytes: [UInt8]) throws {
    let store = try makeStore()
    try RawDatabase(databaseURL).setSealed(bytes, group: "app-private", name: "k")
    expectStoreError(.tamperedValue) { _ = try store.data(forKey: "k", in: .appPrivate) }
  }

  @Test func newerValueFormatIsReportedAsUnsupported() throws {
    let store = try makeStore()
    try store.setData(Data(text: "v"), forKey: "k", in: .appPrivate)
    let raw = try RawDatabase(databaseURL)
    var sealed = try raw.sealed(group: "app-private", name: "k")
    sealed[0] = 2
    try raw.setSealed(sealed, group: "app-private", name: "k")
    expectStoreError(.unsupportedFormat) { _ = try store.data(forKey: "k", in: .appPrivate) }
  }

  @Test func valueMovedToAnotherKeyOrGroupFailsAuthentication() throws {
    let store = try makeStore()
    try store.setData(Data(text: "admin token"), forKey: "auth.token", in: .appPrivate)
    let raw = try RawDatabase(databaseURL)
    let sealed = try raw.sealed(group: "app-private", name: "auth.token")
    try raw.setSealed(sealed, group: "app-private", name: "auth.copy")
    try raw.setSealed(sealed, group: "shared", name: "auth.token")
    expectStoreError(.tamperedValue) { _ = try store.data(forKey: "auth.copy", in: .appPrivate) }
    expectStoreError(.tamperedValue) {
      _ = try store.data(forKey: "auth.token", in: .sharedWithExtension)
    }
    #expect(try store.data(forKey: "auth.token", in: .appPrivate) == Data(text: "admin token"))
  }

  @Test func wrongMasterKeyIsDetectedAtOpenAndChangesNothing() throws {
    try makeStore().setData(Data(text: "v"), forKey: "k", in: .appPrivate)
    let original = try Data(contentsOf: keyFileURL)
    try writeKeyFile(Data(original.map { $0 ^ 0xA5 }))
    expectStoreError(.wrongMasterKey) { _ = try makeStore() }
    try writeKeyFile(original)
    #expect(try makeStore().data(forKey: "k", in: .appPrivate) == Data(text: "v"))
  }

  @Test func missingKeyFileWithSealedValuesIsAWrongKeyAndCreatesNoNewKey() throws {
    try makeStore().setData(Data(text: "v"), forKey: "k", in: .appPrivate)
    let original = try Data(contentsOf: keyFileURL)
    try FileManager.default.removeItem(at: keyFileURL)
    expectStoreError(.wrongMasterKey) { _ = try makeStore() }
    #expect(!FileManager.default.fileExists(atPath: keyFileURL.path))
    try writeKeyFile(original)
    #expect(try makeStore().data(forKey: "k", in: .appPrivate) == Data(text: "v"))
  }

  @Test(arguments: [0, 31, 33, 64]) func keyFileOfWrongSizeIsRefused(size: Int) throws {
    try makeStore().setData(Data(text: "v"), forKey: "k", in: .appPrivate)
    let original = try Data(contentsOf: keyFileURL)
    try writeKeyFile(Data(repeating: 9, count: size))
    expectStoreError(.invalidMasterKey) { _ = try makeStore() }
    try writeKeyFile(original)
    #expect(try makeStore().data(forKey: "k", in: .appPrivate) == Data(text: "v"))
  }

  @Test func keyFileReadableByOthersIsRefused() throws {
    _ = try makeStore()
    #expect(chmod(keyFileURL.path, 0o644) == 0)
    expectStoreError(.invalidMasterKey) { _ = try makeStore() }
    #expect(chmod(keyFileURL.path, 0o600) == 0)
    _ = try makeStore()
  }

  @Test func keyFileThatIsASymbolicLinkIsRefused() throws {
    _ = try makeStore()
    let elsewhere = temporary.url.appendingPathComponent("elsewhere.key")
    try FileManager.default.moveItem(at: keyFileURL, to: elsewhere)
    try FileManager.default.createSymbolicLink(at: keyFileURL, withDestinationURL: elsewhere)
    expectStoreError(.invalidMasterKey) { _ = try makeStore() }
  }

  @Test func damagedKeyCheckValueReadsAsWrongMasterKey() throws {
    try makeStore().setData(Data(text: "v"), forKey: "k", in: .appPrivate)
    try RawDatabase(databaseURL).query(
      "UPDATE meta SET value = ? WHERE name = 'check'", [1] + [UInt8](repeating: 7, count: 60))
    expectStoreError(.wrongMasterKey) { _ = try makeStore() }
  }

  @Test func suppliedKeyIsUsedWithoutAKeyFile() throws {
    let key = Data((0..<32).map { UInt8($0) })
    try makeStore(.init(masterKey: .supplied(key))).setData(
      Data(text: "v"), forKey: "k", in: .appPrivate)
    #expect(!FileManager.default.fileExists(atPath: keyFileURL.path))
    let reopened = try makeStore(.init(masterKey: .supplied(key)))
    #expect(try reopened.data(forKey: "k", in: .appPrivate) == Data(text: "v"))
    expectStoreError(.wrongMasterKey) {
      _ = try makeStore(.init(masterKey: .supplied(Data(repeating: 0, count: 32))))
    }
    expectStoreError(.invalidMasterKey) {
      _ = try makeStore(.init(masterKey: .supplied(Data(repeating: 0, count: 16))))
    }
  }

  /// A real `SQLITE_FULL`: the connection's database size is capped, then a write exceeds it.
  @Test func fullDiskRollsBackAndKeepsPreviousValues() throws {
    let store = try makeStore(pragmas: ["PRAGMA max_page_count = 12"])
    try store.setData(Data(text: "old"), forKey: "auth.login", in: .appPrivate)
    try store.setData(Data(text: "journal"), forKey: "auth.journal", in: .appPrivate)
    let large = Data(repeating: 1, count: 256 * 1024)
    expectStoreError(.diskFull) { try store.setData(large, forKey: "auth.login", in: .appPrivate) }

    var batch = CredentialBatch()
    batch.setData(Data(text: "new"), forKey: "auth.login", in: .appPrivate)
    batch.removeValue(forKey: "auth.journal", in: .appPrivate)
    batch.setData(large, forKey: "auth.large", in: .appPrivate)
    expectStoreError(.diskFull) { try store.commit(batch) }

    #expect(try store.data(forKey: "auth.login", in: .appPrivate) == Data(text: "old"))
    #expect(try store.data(forKey: "auth.journal", in: .appPrivate) == Data(text: "journal"))
    #expect(try store.keys(in: .appPrivate) == ["auth.journal", "auth.login"])
    #expect(try makeStore().data(forKey: "auth.login", in: .appPrivate) == Data(text: "old"))
    try store.setData(Data(text: "small"), forKey: "auth.login", in: .appPrivate)
  }

  @Test func writeLockHeldTooLongIsBusyAndKeepsPreviousValue() throws {
    let store = try makeStore(.init(busyTimeout: .milliseconds(50)))
    try store.setData(Data(text: "old"), forKey: "k", in: .appPrivate)
    let other = try RawDatabase(databaseURL)
    try other.query("BEGIN IMMEDIATE")
    expectStoreError(.busy) { try store.setData(Data(text: "new"), forKey: "k", in: .appPrivate) }
    #expect(try store.data(forKey: "k", in: .appPrivate) == Data(text: "old"))
    try other.query("ROLLBACK")
    try store.setData(Data(text: "new"), forKey: "k", in: .appPrivate)
    #expect(try store.data(forKey: "k", in: .appPrivate) == Data(text: "new"))
  }

  /// Each instance writes from a thread of its own (`offPool`): two connections wait on each
  /// other's write lock (the busy timeout), which must not hold threads of the cooperative pool.
  @Test func addingIfAbsentFromTwoInstancesAtOnceLeavesOneValueEveryoneGets() async throws {
    let stores = [try makeStore(), try makeStore()]
    let results = try await withThrowingTaskGroup(of: String.self) { group in
      for caller in 0..<16 {
        group.addTask {
          try await offPool {
            try stores[caller % 2].valueAddingIfAbsent(forKey: "device-token", in: .appPrivate) {
              "token-\(caller)"
            }
          }
        }
      }
      return try await group.reduce(into: [String]()) { $0.append($1) }
    }
    #expect(Set(results).count == 1)
    #expect(try stores[1].value(String.self, forKey: "device-token", in: .appPrivate) == results[0])
  }

  @Test func anAddChangeKeepsAStoredValueAndAddsAMissingOne() throws {
    let store = try makeStore()
    try store.setData(Data(text: "first"), forKey: "kept", in: .appPrivate)
    try store.commit(
      CredentialBatch([
        .add(Data(text: "second"), key: "kept", group: .appPrivate),
        .add(Data(text: "new"), key: "added", group: .appPrivate),
      ]))
    #expect(try store.data(forKey: "kept", in: .appPrivate) == Data(text: "first"))
    #expect(try store.data(forKey: "added", in: .appPrivate) == Data(text: "new"))
  }

  @Test func twoInstancesOnOneDirectorySeeEachOthersWrites() async throws {
    let first = try makeStore()
    let second = try makeStore()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (index, store) in [first, second].enumerated() {
        group.addTask {
          try await offPool {
            for write in 0..<100 {
              var batch = CredentialBatch()
              batch.setData(
                Data(text: "\(index):\(write)"), forKey: CredentialKey("s\(index).\(write)"),
                in: .appPrivate)
              batch.setData(Data(text: "\(index)"), forKey: "last-writer", in: .appPrivate)
              try store.commit(batch)
            }
          }
        }
      }
      try await group.waitForAll()
    }
    for store in [first, second] {
      #expect(try store.keys(in: .appPrivate).count == 201)
      #expect(try store.data(forKey: "s0.99", in: .appPrivate) == Data(text: "0:99"))
      #expect(try store.data(forKey: "s1.99", in: .appPrivate) == Data(text: "1:99"))
    }
    #expect(
      try first.data(forKey: "last-writer", in: .appPrivate)
        == second.data(forKey: "last-writer", in: .appPrivate))
  }

  @Test func newerSchemaIsRefusedWithoutChanges() throws {
    try makeStore().setData(Data(text: "v"), forKey: "k", in: .appPrivate)
    try RawDatabase(databaseURL).query("PRAGMA user_version = 2")
    expectStoreError(.unsupportedFormat) { _ = try makeStore() }
    #expect(try RawDatabase(databaseURL).query("PRAGMA user_version") == ["2"])
  }

  @Test func fileThatIsNotADatabaseIsReportedAsCorrupt() throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let garbage = Data(repeating: 0x5A, count: 8192)
    try garbage.write(to: databaseURL)
    expectStoreError(.corruptDatabase) { _ = try makeStore() }
    #expect(try Data(contentsOf: databaseURL) == garbage)
  }
}
