#if canImport(COpenSSL)
  internal import ServerBeeCore
  internal import ServerBeeModels
  internal import COpenSSL
  internal import Foundation
  #if canImport(Glibc)
    internal import Glibc
  #elseif canImport(Darwin)
    internal import Darwin
  #endif

  /// The 32-byte AES-256 master key, held in one allocation that is wiped when released.
  final class MasterKey: @unchecked Sendable {
    // Safe to share: `bytes` is written once in `init` and only read afterwards, until `deinit`
    // wipes and frees it, which happens only when no reference remains.
    static let size = 32
    private let bytes: UnsafeMutableRawBufferPointer

    init<Bytes: Collection<UInt8>>(copying source: Bytes) throws(SecureStoreError) {
      guard source.count == Self.size else {
        throw SecureStoreError(
          .invalidMasterKey, "a master key must have \(Self.size) bytes, not \(source.count)")
      }
      bytes = .allocate(byteCount: Self.size, alignment: 16)
      bytes.copyBytes(from: source)
    }

    /// A new key from OpenSSL's CSPRNG.
    static func random() throws(SecureStoreError) -> MasterKey {
      var fresh = SecureRandom.bytes(Self.size)
      defer { OPENSSL_cleanse(&fresh, fresh.count) }
      return try MasterKey(copying: fresh)
    }

    deinit {
      OPENSSL_cleanse(bytes.baseAddress, Self.size)
      bytes.deallocate()
    }

    func withUnsafeBytes<Result>(_ body: (UnsafePointer<UInt8>) throws -> Result) rethrows
      -> Result
    {
      // The allocation is exactly `size` bytes and never nil.
      try body(UnsafePointer(bytes.bindMemory(to: UInt8.self).baseAddress.unsafelyUnwrapped))
    }
  }

  /// The master key file: exactly 32 raw bytes, mode 0600, created atomically.
  enum MasterKeyFile {
    /// Reads the key file, or returns `nil` when it does not exist.
    static func load(at path: String) throws(SecureStoreError) -> MasterKey? {
      let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
      guard fd >= 0 else {
        if errno == ENOENT { return nil }
        if errno == ELOOP {
          throw SecureStoreError(.invalidMasterKey, "the master key file is a symbolic link")
        }
        throw POSIX.error("reading the master key file")
      }
      defer { close(fd) }
      var info = stat()
      guard fstat(fd, &info) == 0 else { throw POSIX.error("reading the master key file") }
      guard info.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else {
        throw SecureStoreError(.invalidMasterKey, "the master key file is not a regular file")
      }
      guard info.st_mode & 0o077 == 0 else {
        throw SecureStoreError(
          .invalidMasterKey,
          "the master key file is readable by group or others (mode \(String(info.st_mode & 0o777, radix: 8))); it must be 0600"
        )
      }
      guard info.st_size == MasterKey.size else {
        throw SecureStoreError(
          .invalidMasterKey,
          "the master key file has \(info.st_size) bytes; it must have exactly \(MasterKey.size)")
      }
      var buffer = [UInt8](repeating: 0, count: MasterKey.size + 1)
      defer { OPENSSL_cleanse(&buffer, buffer.count) }
      var filled = 0
      while filled < buffer.count {
        let count = buffer.withUnsafeMutableBytes {
          read(fd, $0.baseAddress.unsafelyUnwrapped + filled, $0.count - filled)
        }
        if count < 0, errno == EINTR { continue }
        guard count >= 0 else { throw POSIX.error("reading the master key file") }
        if count == 0 { break }
        filled += count
      }
      guard filled == MasterKey.size else {
        throw SecureStoreError(
          .invalidMasterKey, "the master key file changed size while it was read")
      }
      return try MasterKey(copying: buffer[0..<MasterKey.size])
    }

    /// Creates a key file holding `key` without ever exposing a partial file under `path`.
    ///
    /// The bytes go to a fresh temporary file (`O_EXCL`, mode 0600) that is synced and then
    /// hard-linked to `path`. Unlike `rename`, `link` never replaces an existing file, so when
    /// another process created the key first, its key wins and is returned.
    static func create(
      at path: String, directory: String, key: MasterKey
    ) throws(SecureStoreError) -> MasterKey {
      let suffix = SecureRandom.bytes(8).map { String($0, radix: 16) }.joined()
      let temporary = "\(directory)/.master.key.\(suffix).tmp"
      let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      guard fd >= 0 else { throw POSIX.error("creating the master key file") }
      defer { unlink(temporary) }
      let written = writeAndSync(fd, key)
      close(fd)
      if let written { throw written }
      if link(temporary, path) != 0 {
        guard errno == EEXIST else { throw POSIX.error("creating the master key file") }
        guard let existing = try load(at: path) else {
          throw SecureStoreError(.storageFailed, "the master key file vanished while created")
        }
        return existing
      }
      syncDirectory(directory)
      return key
    }

    /// Writes the key and syncs the file; returns the failure, if any.
    private static func writeAndSync(_ fd: Int32, _ key: MasterKey) -> SecureStoreError? {
      guard fchmod(fd, 0o600) == 0 else { return POSIX.error("creating the master key file") }
      var written = 0
      while written < MasterKey.size {
        let count = key.withUnsafeBytes { write(fd, $0 + written, MasterKey.size - written) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return POSIX.error("writing the master key file") }
        written += count
      }
      guard fsync(fd) == 0 else { return POSIX.error("syncing the master key file") }
      return nil
    }

    /// Makes the new directory entry durable; failure only weakens durability, so it is ignored.
    private static func syncDirectory(_ directory: String) {
      let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      guard fd >= 0 else { return }
      _ = fsync(fd)
      close(fd)
    }
  }
#endif
