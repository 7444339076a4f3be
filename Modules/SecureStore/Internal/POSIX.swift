internal import ServerBeeModels

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

/// errno values mapped to the store's error codes, shared by the key file and directory code.
enum POSIX {
  /// The current `errno` as a ``SecureStoreError`` for `operation` (which names no secret).
  static func error(_ operation: String, errno code: Int32 = errno) -> SecureStoreError {
    let reason = String(cString: strerror(code))
    switch code {
    case EROFS, EACCES, EPERM:
      return SecureStoreError(.readOnly, "\(operation): \(reason)")
    case ENOSPC, EDQUOT:
      return SecureStoreError(.diskFull, "\(operation): \(reason)")
    default:
      return SecureStoreError(.storageFailed, "\(operation): \(reason) (errno \(code))")
    }
  }
}

extension POSIX {
  /// `read(2)`, named apart from the many `read` methods in scope.
  static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.read(fd, buffer, count)
    #else
      Darwin.read(fd, buffer, count)
    #endif
  }

  /// `write(2)`, named apart from the many `write` methods in scope.
  static func write(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.write(fd, buffer, count)
    #else
      Darwin.write(fd, buffer, count)
    #endif
  }
}
