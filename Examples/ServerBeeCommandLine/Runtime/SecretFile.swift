import Foundation
import ServerBeeModels

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file that holds a secret (a new API key): written to a temporary file next to it, created
/// new with mode 0600, and linked into place only once the whole key is in it, so the final
/// path is never empty or half written, and an existing file is never replaced (a
/// killed `account api-keys create` used to leave an empty file behind).
///
/// ```swift
/// let target = SecretFile.Target(path)
/// let file = try SecretFile(creating: target)   // before the server makes the key
/// try file.commit(key, keyDescription: id)      // or file.discard()
/// ```
struct SecretFile {
  /// The final path, where the secret goes, and the temporary files that belong to it.
  struct Target {
    /// The path as given.
    let path: String
    /// The directory the temporary file is made in (the same file system, for `link`).
    let directory: String
    /// The file name of the final path.
    let name: String

    init(_ path: String) {
      self.path = path
      let url = URL(fileURLWithPath: path)
      directory = url.deletingLastPathComponent().path
      name = url.lastPathComponent
    }

    /// The temporary file of the process `pid`: hidden, next to the final path.
    func temporaryPath(pid: Int32) -> String {
      (directory as NSString).appendingPathComponent(".\(name).partial-\(pid)")
    }

    /// What is at the final path, or `nil` when nothing is.
    func existing() -> Found? {
      var info = stat()
      guard lstat(path, &info) == 0 else { return nil }
      return Found(path: path, contents: Contents.read(path, info))
    }

    /// The temporary files that interrupted runs left (their process is gone), with what
    /// they hold.
    func leftovers() -> [Found] {
      let prefix = ".\(name).partial-"
      let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
      return names.sorted().compactMap { entry in
        guard entry.hasPrefix(prefix), let pid = Int32(entry.dropFirst(prefix.count)),
          pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
        else { return nil }
        let path = (directory as NSString).appendingPathComponent(entry)
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Found(path: path, contents: Contents.read(path, info))
      }
    }
  }

  /// A file found where a key was to go.
  struct Found {
    /// Its path.
    let path: String
    /// What it holds.
    let contents: Contents
  }

  /// What a file found holds, read no further than a key's public prefix.
  enum Contents: Equatable {
    /// Nothing: what a create interrupted before the key was saved left (before).
    case empty
    /// An API key; only its public prefix (the 8 characters after `serverbee_`, as
    /// `account api-keys` lists it) is kept.
    case key(prefix: String)
    /// Something else.
    case other
    /// It could not be read.
    case unreadable

    static func read(_ path: String, _ info: stat) -> Contents {
      guard (info.st_mode & S_IFMT) == S_IFREG else { return .other }
      if info.st_size == 0 { return .empty }
      let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
      guard fd >= 0 else { return .unreadable }
      defer { close(fd) }
      var bytes = [UInt8](repeating: 0, count: 18)
      let count = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
      guard count == 18 else { return .other }
      let text = String(decoding: bytes, as: UTF8.self)
      guard text.hasPrefix("serverbee_") else { return .other }
      return .key(prefix: String(text.dropFirst("serverbee_".count)))
    }
  }

  private let fd: Int32
  private let target: Target
  private let temporary: String

  /// Creates the temporary file (mode 0600, new) next to the target.
  /// - Throws: ``CommandLineError`` when it cannot be created.
  init(creating target: Target) throws {
    let temporary = target.temporaryPath(pid: getpid())
    // A file of this process id can only be from a process long gone (ids are reused).
    unlink(temporary)
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw CommandLineError(
        .localFailure,
        "\(target.path) could not be created (\(String(cString: strerror(errno))))")
    }
    self.fd = fd
    self.target = target
    self.temporary = temporary
  }

  /// Writes `text` and a newline, flushes it to disk and links it into place; the temporary
  /// file is removed when the key is in place, and on a failed write.
  /// - Parameters:
  ///   - text: The secret.
  ///   - keyDescription: The key's id, for the sentence when it could not be saved.
  /// - Throws: ``CommandLineError`` when the key could not be written, or when a file
  ///   appeared at the final path meanwhile (the key stays in the temporary file, named).
  func commit(_ text: String, keyDescription: String) throws {
    let bytes = Array((text + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        Foundation.write(fd, $0.baseAddress, $0.count)
      }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { break }
      offset += written
    }
    let synced = offset == bytes.count && fsync(fd) == 0
    close(fd)
    guard synced else {
      unlink(temporary)
      throw CommandLineError(
        .localFailure,
        "the key could not be written to \(target.path); nobody holds the API key "
          + "\(keyDescription) now: 'serverbee account api-keys delete \(keyDescription)' "
          + "removes it")
    }
    // link, not rename: it never replaces a file that appeared at the final path meanwhile.
    if link(temporary, target.path) == 0 {
      unlink(temporary)
      return
    }
    let failure = errno
    if failure != EEXIST, target.existing() == nil, rename(temporary, target.path) == 0 {
      return  // a file system without hard links
    }
    throw CommandLineError(
      .localFailure,
      "\(target.path) "
        + (failure == EEXIST
          ? "appeared while the key was created" : "could not be created")
        + ": the new key is in \(temporary), readable only by you; move it where you want it")
  }

  /// Closes and removes the temporary file (nothing was written).
  func discard() {
    close(fd)
    unlink(temporary)
  }
}
