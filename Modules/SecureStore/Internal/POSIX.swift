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
