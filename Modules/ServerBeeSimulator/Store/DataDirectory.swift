import Foundation
import ServerBeeModels

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The data directory, claimed by one simulator for its whole life and kept private.
///
/// **One owner.** Two simulators on one database both release and take the outbox leases
/// (a restart releases the leases of a killed run), so every push would be sent twice. The
/// owner holds an exclusive `flock` on `simulator.lock` until it goes away; a second
/// simulator, in this process or another, fails at once with `dataDirectoryInUse` and
/// touches nothing but the lock file's open. `flock` belongs to the open file description,
/// so the kernel releases it when the process dies, even by `SIGKILL`, and the descriptor
/// is close-on-exec so no child (a test's helper, a shell) keeps it alive after us.
///
/// **Private files.** The database holds content keys and token digests in plain text, so
/// every file the simulator writes is created 0600 in a 0700 directory, the mode given at
/// creation rather than fixed afterwards: `simulator.sqlite` is created 0600 before SQLite
/// opens it, and SQLite creates its `-wal` and `-shm` with the database file's mode. The
/// process umask is left alone (an in-process simulator shares it with the host test). A
/// directory the simulator creates is 0700; an existing one that already holds a
/// `simulator.sqlite` (made by an earlier simulator) is tightened to 0700, and its files to
/// 0600. A directory the caller made that holds no simulator database keeps its mode (it may
/// be a working directory); the files inside are private all the same.
final class DataDirectoryLock: Sendable {
  /// The lock file's name.
  static let lockFileName = "simulator.lock"
  /// The database file's name.
  static let databaseFileName = "simulator.sqlite"
  /// Files the simulator writes; each one is 0600.
  static let privateFileNames = [
    databaseFileName, databaseFileName + "-wal", databaseFileName + "-shm", "control-token",
    lockFileName,
  ]

  /// The claimed directory.
  let directory: URL
  /// The open `simulator.lock`, holding the `flock` until `deinit` closes it.
  private let descriptor: Int32

  /// Takes the exclusive lock without waiting, except when its holder is this very process:
  /// a child being spawned (by any thread) shares the lock's open file until its `exec` closes
  /// it (`O_CLOEXEC`), so a lock this process just released can look held for a moment on a
  /// loaded machine. That case is retried for up to 2 s; another process's lock fails at once.
  /// - Parameter descriptor: The open lock file.
  /// - Returns: Whether the lock is ours (`errno` says why not).
  private static func lock(_ descriptor: Int32) -> Bool {
    for _ in 0..<200 {
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
      guard errno == EWOULDBLOCK, ownerPID(descriptor) == getpid() else { return false }
      usleep(10_000)
    }
    errno = EWOULDBLOCK
    return false
  }

  /// Creates the directory if needed (0700), takes the lock, writes this process id into the
  /// lock file, tightens the modes and creates the empty database file 0600.
  /// - Parameter directory: The data directory.
  /// - Throws: ``ServerBeeSimulatorError`` with code `dataDirectoryInUse` when another
  ///   simulator holds it, `storageFailed` when it cannot be created or locked.
  init(directory: URL) throws {
    self.directory = directory
    let path = directory.path
    let existed = FileManager.default.fileExists(atPath: path)
    if !existed { try Self.createPrivateDirectory(directory) }
    let lockPath = directory.appendingPathComponent(Self.lockFileName).path
    let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw ServerBeeSimulatorError(
        .storageFailed, "cannot open \(lockPath): \(String(cString: strerror(errno)))")
    }
    guard Self.lock(descriptor) else {
      let reason = errno
      defer { close(descriptor) }
      if reason == EWOULDBLOCK {
        let owner = Self.ownerPID(descriptor).map { "pid \($0)" } ?? "pid unknown"
        throw ServerBeeSimulatorError(
          .dataDirectoryInUse, "\(path) is in use by another simulator (\(owner))")
      }
      throw ServerBeeSimulatorError(
        .storageFailed, "cannot lock \(lockPath): \(String(cString: strerror(reason)))")
    }
    self.descriptor = descriptor
    // Ours from here on. The pid is for the message a second simulator prints.
    let pid = Array("\(getpid())\n".utf8)
    _ = ftruncate(descriptor, 0)
    _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    if existed,
      FileManager.default.fileExists(
        atPath: directory.appendingPathComponent(Self.databaseFileName).path)
    {
      _ = chmod(path, 0o700)
    }
    for name in Self.privateFileNames {
      _ = chmod(directory.appendingPathComponent(name).path, 0o600)  // ENOENT is fine
    }
    try Self.createPrivateFile(directory.appendingPathComponent(Self.databaseFileName))
  }

  deinit { close(descriptor) }

  /// The database file's path.
  var databasePath: String { directory.appendingPathComponent(Self.databaseFileName).path }

  /// Creates `directory` 0700 (its missing parents with the default mode).
  private static func createPrivateDirectory(_ directory: URL) throws {
    do {
      try FileManager.default.createDirectory(
        at: directory.deletingLastPathComponent(), withIntermediateDirectories: true)
    } catch {
      throw ServerBeeSimulatorError(
        .storageFailed, "cannot create \(directory.deletingLastPathComponent().path)")
    }
    if mkdir(directory.path, 0o700) != 0, errno != EEXIST {
      throw ServerBeeSimulatorError(
        .storageFailed,
        "cannot create \(directory.path): \(String(cString: strerror(errno)))")
    }
    // mkdir's mode is masked by the umask, which can only remove bits; this makes it exact.
    _ = chmod(directory.path, 0o700)
  }

  /// Creates an empty file 0600 unless it exists (then its mode was tightened already).
  static func createPrivateFile(_ file: URL) throws {
    let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw ServerBeeSimulatorError(
        .storageFailed, "cannot create \(file.path): \(String(cString: strerror(errno)))")
    }
    close(descriptor)
  }

  /// The pid the owner wrote into the lock file. It writes it right after taking the lock, so
  /// an empty file means "just taken": read again for up to half a second.
  private static func ownerPID(_ descriptor: Int32) -> Int32? {
    for _ in 0..<25 {
      var buffer = [UInt8](repeating: 0, count: 32)
      let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      usleep(20_000)
    }
    return nil
  }
}
