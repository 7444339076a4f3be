public import ServerBeeModels

/// The error domain of the SecureStore module.
public enum SecureStoreDomain: ServerBeeErrorDomain {
  /// `"SecureStore"`.
  public static let name = "SecureStore"
}

/// The one public error type of SecureStore: a `ServerBeeError` (ServerBeeModels) with this
/// module's codes.
///
/// Every failure of a ``CredentialStore`` is one of these codes. None of them is destructive: the
/// store never deletes or rewrites a value because reading or writing it failed, so after any of
/// these errors the values that were readable before are still readable.
///
/// ```swift
/// do {
///   try store.setData(token, forKey: "auth.refresh-token", in: .appPrivate)
/// } catch let error as SecureStoreError where error.code == .diskFull {
///   // The previous refresh token is still stored; do not discard it.
/// }
/// ```
public typealias SecureStoreError = ServerBeeError<SecureStoreDomain>

extension ServerBeeError.Code where Domain == SecureStoreDomain {
  /// A key name is empty, longer than ``CredentialKey/maximumLength`` UTF-8 bytes, or contains a
  /// control character.
  public static let invalidKey = Self("invalid_key")
  /// A value is larger than ``CredentialBatch/maximumValueSize`` bytes.
  public static let valueTooLarge = Self("value_too_large")
  /// A stored value failed authentication: it was tampered with, corrupted, or moved to another
  /// key or group. The value is left in place; writing a new value replaces it.
  public static let tamperedValue = Self("tampered_value")
  /// The master key does not open this store: the key file or the supplied key is not the one the
  /// store was created with, or the key file is missing while the database holds sealed values.
  public static let wrongMasterKey = Self("wrong_master_key")
  /// The master key is malformed: a key file that is not a regular file, not exactly 32 bytes, or
  /// readable by group or others; or a supplied key that is not 32 bytes.
  public static let invalidMasterKey = Self("invalid_master_key")
  /// The directory, the database or the key file cannot be written (read-only file system or
  /// missing write permission). Reading still works when the files are readable.
  public static let readOnly = Self("read_only")
  /// The disk (or the database's size limit) is full; the write was rolled back.
  public static let diskFull = Self("disk_full")
  /// Another process held the database lock for longer than the busy timeout.
  public static let busy = Self("busy")
  /// The database file is not an SQLite database or its structure is damaged.
  public static let corruptDatabase = Self("corrupt_database")
  /// The database or a value was written by a newer format version than this SDK understands.
  public static let unsupportedFormat = Self("unsupported_format")
  /// A typed value could not be encoded to JSON.
  public static let encodingFailed = Self("encoding_failed")
  /// A stored value could not be decoded as the requested type.
  public static let decodingFailed = Self("decoding_failed")
  /// The platform store cannot be used right now, for example the Keychain before the device's
  /// first unlock.
  public static let unavailable = Self("unavailable")
  /// Any other failure of the underlying store; the message names the operation and the status.
  public static let storageFailed = Self("storage_failed")
}
