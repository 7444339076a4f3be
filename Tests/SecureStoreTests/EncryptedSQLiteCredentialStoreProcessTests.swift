import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestHarness
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Tests with real child processes: the `securestore-crash-writer` helper target, built next to
/// the test bundle by `swift build` / `swift test`.
@Suite(.timeLimit(.minutes(5))) struct EncryptedSQLiteCredentialStoreProcessTests {
  let scratch: ScratchDirectory
  let directory: URL

  init() throws {
    scratch = try ScratchDirectory()
    directory = scratch.url.appendingPathComponent("store", isDirectory: true)
  }

  /// A writer killed with SIGKILL while it commits a batch leaves every key with a complete
  /// value, all from the same batch: the one before the interrupted commit, or that one.
  @Test func killedWriterLeavesEveryKeyWithACompleteValue() async throws {
    var previous = 0
    for round in 1...4 {
      let writer = try HelperProcess(["loop", directory.path])
      // The writer prints "committing N" just before committing batch N; killed after its
      // last line, it either finished that batch or left the one before.
      let target = previous + 10 * round
      let (committing, status) = await writer.kill(afterCommitting: target)
      try #require(committing >= target, "the writer stopped at generation \(committing)")
      #expect(status == .killed)

      let store = try EncryptedSQLiteCredentialStore(directory: directory)
      var generations: Set<Int> = []
      for key in CrashWriterRecord.keys {
        let record = try #require(
          try store.value(CrashWriterRecord.self, forKey: key, in: .appPrivate))
        #expect(record == CrashWriterRecord(key: key.rawValue, generation: record.generation))
        generations.insert(record.generation)
      }
      #expect(generations.count == 1, "keys hold different batches: \(generations.sorted())")
      let generation = try #require(generations.first)
      #expect(generation == committing - 1 || generation == committing)
      previous = generation
    }
  }

  @Test func writersInSeveralProcessesAllLand() async throws {
    _ = try EncryptedSQLiteCredentialStore(directory: directory)
    let writers = try ["a", "b"].map { try HelperProcess(["write", directory.path, $0, "150"]) }
    // A generous busy timeout, like the helpers': this test is about every write landing.
    let store = try EncryptedSQLiteCredentialStore(
      directory: directory, configuration: .init(busyTimeout: .seconds(60)))
    // On a thread of its own: the writes wait on the other processes' write lock.
    try await offPool {
      for index in 0..<150 {
        try store.setData(
          Data(text: "c-\(index)"), forKey: CredentialKey("c-\(index)"), in: .appPrivate)
      }
    }
    for writer in writers {
      #expect(await writer.nextLine() == "done")
      #expect(await writer.wait() == .exited(0))
    }
    #expect(try store.keys(in: .appPrivate).count == 450)
    for prefix in ["a", "b", "c"] {
      for index in [0, 74, 149] {
        #expect(
          try store.data(forKey: CredentialKey("\(prefix)-\(index)"), in: .appPrivate)
            == Data(text: "\(prefix)-\(index)"))
      }
    }
  }

  /// Files that cannot be written (a read-only copy, a read-only mount): reads still work,
  /// writes throw `readOnly`, and the value is unchanged. The probe runs as `nobody` when the
  /// tests run as root, because root ignores file modes.
  @Test func readOnlyStoreStillReadsAndRefusesWrites() async throws {
    try EncryptedSQLiteCredentialStore(directory: directory).setData(
      Data(text: "old"), forKey: "auth.login", in: .appPrivate)
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    try handToProbe(directory, files: files)
    for file in files { try setMode(0o400, directory.appendingPathComponent(file)) }
    try setMode(0o500, directory)
    defer {
      _ = chmod(directory.path, 0o700)
      for file in files { _ = chmod(directory.appendingPathComponent(file).path, 0o600) }
    }

    let probe = try HelperProcess(["probe", directory.path, "auth.login"])
    #expect(
      await probe.remainingLines() == ["open=ok", "readOnly=true", "read=old", "write=read_only"])
    #expect(await probe.wait() == .exited(0))

    try setMode(0o700, directory)
    for file in files { try setMode(0o600, directory.appendingPathComponent(file)) }
    let store = try EncryptedSQLiteCredentialStore(directory: directory)
    #expect(try store.data(forKey: "auth.login", in: .appPrivate) == Data(text: "old"))
  }

  @Test func newStoreInReadOnlyDirectoryIsRefused() async throws {
    let parent = scratch.url.appendingPathComponent("read-only", isDirectory: true)
    try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: false)
    try handToProbe(parent, files: [])
    try setMode(0o500, parent)
    defer { _ = chmod(parent.path, 0o700) }
    for target in [parent, parent.appendingPathComponent("store")] {
      let probe = try HelperProcess(["probe", target.path, "k"])
      #expect(await probe.remainingLines() == ["open=read_only"])
      #expect(await probe.wait() == .exited(0))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path).isEmpty)
  }

  /// When running as root, gives the files to `nobody`, the user the probe switches to.
  private func handToProbe(_ directory: URL, files: [String]) throws {
    guard geteuid() == 0 else { return }
    try #require(chmod(scratch.url.path, 0o755) == 0)
    for path in [directory.path] + files.map({ directory.appendingPathComponent($0).path }) {
      try #require(chown(path, 65534, 65534) == 0, "chown \(path)")
    }
  }

  private func setMode(_ mode: mode_t, _ url: URL) throws {
    try #require(chmod(url.path, mode) == 0, "chmod \(url.path)")
  }
}

/// A running `securestore-crash-writer` with its standard output.
final class HelperProcess: @unchecked Sendable {
  // @unchecked: one test drives it, one call at a time; blocking calls run off the pool.
  enum Status: Equatable {
    case exited(Int32)
    case killed
    case signalled(Int32)
  }

  private let process = Process()
  private let output = Pipe()
  private var buffer = Data()

  init(_ arguments: [String]) throws {
    process.executableURL = try Self.executable()
    process.arguments = arguments
    process.standardOutput = output
    try process.run()
  }

  deinit { process.endGroup() }

  /// The next line the helper printed, or `nil` at end of output.
  func nextLine() async -> String? {
    (try? await offPool { self.nextLineBlocking() }) ?? nil
  }

  private func nextLineBlocking() -> String? {
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
        buffer.removeSubrange(buffer.startIndex...newline)
        return line
      }
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { return nil }
      buffer.append(chunk)
    }
  }

  /// Every line until the helper closes its output.
  func remainingLines() async -> [String] {
    var lines: [String] = []
    while let line = await nextLine() { lines.append(line) }
    return lines
  }

  /// Reads lines until the helper printed "committing N" with N ≥ `target` (or its output
  /// ended), then sends SIGKILL at once, waits, and reads what it printed in the meantime.
  ///
  /// The writer runs ahead of the reader (the pipe buffers its lines, and a loaded machine may
  /// run it for a while before the kill lands), so the batch being committed at the kill is the
  /// one named by the last line it *printed*, not the last line read before the kill.
  /// - Returns: The last N the helper printed and how the process ended.
  func kill(afterCommitting target: Int) async -> (committing: Int, status: Status) {
    (try? await offPool { () -> (Int, Status) in
      var committing = 0
      func read(_ line: String) {
        if line.hasPrefix("committing "), let value = Int(line.dropFirst(11)) {
          committing = value
        }
      }
      while committing < target, let line = self.nextLineBlocking() { read(line) }
      self.process.signalGroup(SIGKILL)
      self.process.waitUntilExit()
      while let line = self.nextLineBlocking() { read(line) }
      return (committing, self.status)
    }) ?? (0, .signalled(-1))
  }

  /// Waits for the process to end.
  func wait() async -> Status {
    await process.exited()
    return status
  }

  private var status: Status {
    switch process.terminationReason {
    case .exit: return .exited(process.terminationStatus)
    case .uncaughtSignal:
      return process.terminationStatus == SIGKILL ? .killed : .signalled(process.terminationStatus)
    @unknown default: return .signalled(-1)
    }
  }

  /// The helper binary: in the build directory, next to (or a few levels above) the test bundle.
  private static func executable() throws -> URL {
    let name = "securestore-crash-writer"
    let start = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    var directory = start.deletingLastPathComponent()
    for _ in 0..<5 {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    throw SecureStoreError(.storageFailed, "\(name) was not found near \(start.path)")
  }
}
