// The child process of SecureStore's process tests (Tests/SecureStoreTests/
// EncryptedSQLiteCredentialStoreProcessTests.swift). Not a product; never shipped.
//
//   securestore-crash-writer loop DIR          commit batches forever, printing "committing N"
//   securestore-crash-writer write DIR PREFIX N write N keys PREFIX-0… and exit
//   securestore-crash-writer probe DIR KEY     (as an unprivileged user when started as root)
//                                              open, read KEY, try a write; print the outcomes
import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestHarness

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func outcome(_ error: any Error) -> String {
  (error as? SecureStoreError).map { String(describing: $0.code) } ?? "other"
}

func loop(_ directory: URL) throws -> Never {
  let store = try EncryptedSQLiteCredentialStore(directory: directory)
  var generation =
    (try store.value(CrashWriterRecord.self, forKey: CrashWriterRecord.keys[0], in: .appPrivate)?
      .generation ?? 0)
  while true {
    generation += 1
    var batch = CredentialBatch()
    for key in CrashWriterRecord.keys {
      try batch.setValue(
        CrashWriterRecord(key: key.rawValue, generation: generation), forKey: key, in: .appPrivate)
    }
    // The test kills the writer as soon as it reads this line, so the kill lands while the
    // batch is being sealed, written or synced.
    say("committing \(generation)")
    try store.commit(batch)
  }
}

func write(_ directory: URL, prefix: String, count: Int) throws {
  // Three writers take turns on the write lock, each commit fsync'd: on a loaded machine a
  // turn can exceed the default 5 s busy timeout, and this test is about every write landing.
  let store = try EncryptedSQLiteCredentialStore(
    directory: directory, configuration: .init(busyTimeout: .seconds(60)))
  for index in 0..<count {
    try store.setData(
      Data("\(prefix)-\(index)".utf8), forKey: CredentialKey("\(prefix)-\(index)"),
      in: .appPrivate)
  }
  say("done")
}

func probe(_ directory: URL, key: String) {
  if geteuid() == 0 {
    // Root ignores file modes, so the probe drops to `nobody` to meet a read-only store.
    guard setgroups(0, nil) == 0, setgid(65534) == 0, setuid(65534) == 0 else {
      say("privileges=failed")
      exit(2)
    }
  }
  let store: EncryptedSQLiteCredentialStore
  do {
    store = try EncryptedSQLiteCredentialStore(directory: directory)
    say("open=ok")
  } catch {
    say("open=\(outcome(error))")
    return
  }
  say("readOnly=\(store.isReadOnly)")
  do {
    let value = try store.data(forKey: CredentialKey(key), in: .appPrivate)
    say("read=\(value.map { String(decoding: $0, as: UTF8.self) } ?? "nil")")
  } catch {
    say("read=\(outcome(error))")
  }
  do {
    try store.setData(Data("new".utf8), forKey: CredentialKey(key), in: .appPrivate)
    say("write=ok")
  } catch {
    say("write=\(outcome(error))")
  }
}

let arguments = CommandLine.arguments
do {
  switch (arguments.count, arguments.count > 1 ? arguments[1] : "") {
  case (3, "loop"):
    try loop(URL(fileURLWithPath: arguments[2], isDirectory: true))
  case (5, "write"):
    try write(
      URL(fileURLWithPath: arguments[2], isDirectory: true), prefix: arguments[3],
      count: Int(arguments[4]) ?? 0)
  case (4, "probe"):
    probe(URL(fileURLWithPath: arguments[2], isDirectory: true), key: arguments[3])
  default:
    say("usage: securestore-crash-writer loop DIR | write DIR PREFIX N | probe DIR KEY")
    exit(64)
  }
} catch {
  say("error=\(outcome(error))")
  exit(1)
}
