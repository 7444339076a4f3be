#if canImport(COpenSSL)
  internal import ServerBeeModels
  public import Foundation
  #if canImport(Glibc)
    internal import Glibc
  #elseif canImport(Darwin)
    internal import Darwin
  #endif

  /// A ``CredentialStore`` in an SQLite database whose values are sealed with AES-256-GCM, for
  /// Linux, command-line tools and servers.
  ///
  /// The store lives in one directory (created with mode 0700 when missing):
  /// - `credentials.sqlite` (plus its `-wal` and `-shm` files), mode 0600: one row per value,
  ///   holding only sealed bytes. Key names and group names are stored in clear.
  /// - `master.key`, mode 0600: the 32-byte master key, created on first use unless the embedding
  ///   program supplies the key (``MasterKeySource/supplied(_:)``).
  ///
  /// ```swift
  /// let home = URL(fileURLWithPath: "/var/lib/serverbee", isDirectory: true)
  /// let store = try EncryptedSQLiteCredentialStore(directory: home)
  /// try store.setData(refreshToken, forKey: "auth.refresh-token", in: .appPrivate)
  /// ```
  ///
  /// Guarantees:
  /// - Every value is sealed with a fresh random 12-byte nonce; the authenticated data binds it
  ///   to its group and key name, so a value moved to another key fails as
  ///   `tamperedValue`.
  /// - A sealed check value in the `meta` table detects a wrong master key when the store opens
  ///   (`wrongMasterKey`), instead of reporting every value as tampered.
  /// - Writes are SQLite transactions in WAL mode with `synchronous=FULL`: a crash leaves every
  ///   key with its complete old or new value, and a ``CredentialBatch`` applies all-or-nothing.
  /// - Several instances and processes (an app and its extension) may open one directory; each
  ///   write takes the database lock and waits up to ``Configuration/busyTimeout`` for it.
  /// - When the files are readable but not writable, the store opens read-only: reads work and
  ///   writes throw `readOnly`.
  ///
  /// One instance serialises its calls with a lock, so it can be shared by many tasks.
  public final class EncryptedSQLiteCredentialStore: CredentialStore {
    /// Where the master key comes from.
    public enum MasterKeySource: Sendable {
      /// The `master.key` file in the store's directory, created (32 random bytes, mode 0600) when
      /// neither it nor any sealed value exists yet.
      case keyFile
      /// A 32-byte key held by the embedding program; no key file is read or written.
      case supplied(Data)
    }

    /// Options of the store.
    public struct Configuration: Sendable {
      /// Where the master key comes from. Default: ``MasterKeySource/keyFile``.
      public var masterKey: MasterKeySource
      /// How long a call waits for another connection's write lock before it throws
      /// `busy`. Default: 5 seconds.
      public var busyTimeout: Duration

      /// Creates a configuration.
      /// - Parameters:
      ///   - masterKey: Where the master key comes from.
      ///   - busyTimeout: The longest wait for another connection's lock.
      public init(masterKey: MasterKeySource = .keyFile, busyTimeout: Duration = .seconds(5)) {
        self.masterKey = masterKey
        self.busyTimeout = busyTimeout
      }
    }

    /// The database file name inside the directory: `credentials.sqlite`.
    public static let databaseFileName = "credentials.sqlite"
    /// The master key file name inside the directory: `master.key`.
    public static let keyFileName = "master.key"
    /// The schema version this SDK writes and reads (`PRAGMA user_version`).
    public static let schemaVersion = 1

    /// The store's directory.
    public let directory: URL
    private let connection: Locked<SQLiteConnection>
    private let sealer: ValueSealer

    /// Opens the store in `directory`, creating the directory, the database and the key file
    /// when they do not exist.
    /// - Parameters:
    ///   - directory: The directory that holds the database and the key file.
    ///   - configuration: The options.
    /// - Throws: ``SecureStoreError``: `wrongMasterKey`,
    ///   `invalidMasterKey`, `readOnly` (nothing
    ///   exists yet and the directory is not writable), `corruptDatabase`,
    ///   `unsupportedFormat`, `busy`, or
    ///   `storageFailed`.
    public convenience init(directory: URL, configuration: Configuration = Configuration()) throws {
      try self.init(directory: directory, configuration: configuration, connectionPragmas: [])
    }

    /// The full initialiser; `connectionPragmas` run after setup (tests use it to cap the
    /// database size and so produce a real `SQLITE_FULL`).
    init(directory: URL, configuration: Configuration, connectionPragmas: [String])
      throws(SecureStoreError)
    {
      self.directory = directory
      let directoryPath = directory.path
      try Self.makeDirectory(directoryPath)
      let databasePath = "\(directoryPath)/\(Self.databaseFileName)"
      try Self.createDatabaseFile(databasePath)
      let connection = try SQLiteConnection(path: databasePath)
      connection.setBusyTimeout(milliseconds: Self.milliseconds(configuration.busyTimeout))
      connection.persistWriteAheadLog()
      let key = try Self.setUp(
        connection, keySource: configuration.masterKey, directoryPath: directoryPath)
      for pragma in connectionPragmas {
        try connection.query(pragma, operation: "configuring the connection")
      }
      self.sealer = ValueSealer(key: key)
      self.connection = Locked(connection)
    }

    /// Whether the database was opened read-only because its files are not writable.
    public var isReadOnly: Bool { connection.withLock { $0.isReadOnly } }

    /// Reads and opens the value stored under a key.
    /// - Parameters:
    ///   - key: The key.
    ///   - group: The access group.
    /// - Returns: The value, or `nil` when none is stored.
    /// - Throws: ``SecureStoreError``: `tamperedValue` when the stored
    ///   bytes fail authentication (left in place), `invalidKey`,
    ///   `busy`, `corruptDatabase`.
    public func data(forKey key: CredentialKey, in group: AccessGroup) throws -> Data? {
      try key.validate()
      let rows = try connection.withLock { (connection) throws(SecureStoreError) in
        try connection.query(
          "SELECT sealed FROM credentials WHERE access_group = ? AND name = ?",
          [.text(group.rawValue), .text(key.rawValue)], operation: "reading '\(key)'")
      }
      guard let row = rows.first else { return nil }
      guard case .blob(let sealed) = row.first,
        let plaintext = try sealer.open(
          sealed, aad: ValueSealer.credentialAAD(group: group, key: key))
      else {
        throw SecureStoreError(
          .tamperedValue,
          "the value for '\(key)' in group '\(group)' failed authentication (tampered or corrupt); it was left in place"
        )
      }
      return Data(plaintext)
    }

    /// Lists the keys that hold a value in one group, without decrypting anything.
    /// - Parameter group: The access group.
    /// - Returns: The keys, sorted by name.
    /// - Throws: ``SecureStoreError``.
    public func keys(in group: AccessGroup) throws -> [CredentialKey] {
      let rows = try connection.withLock { (connection) throws(SecureStoreError) in
        try connection.query(
          "SELECT name FROM credentials WHERE access_group = ?", [.text(group.rawValue)],
          operation: "listing group '\(group)'")
      }
      return rows.compactMap { row -> CredentialKey? in
        guard case .text(let name) = row.first else { return nil }
        return CredentialKey(name)
      }.sorted()
    }

    /// Seals and writes every change of a batch in one SQLite transaction.
    /// - Parameter batch: The changes, applied in order.
    /// - Throws: ``SecureStoreError``: `readOnly`,
    ///   `diskFull`, `busy`, a validation code, or
    ///   `storageFailed`. The transaction is then rolled back and every
    ///   previous value is unchanged.
    public func commit(_ batch: CredentialBatch) throws {
      try batch.validate()
      guard !batch.isEmpty else { return }
      // Seal before taking the lock: encryption needs no database state.
      var statements: [(sql: String, parameters: [SQLiteValue])] = []
      for change in batch.changes {
        switch change {
        case .set(let data, let key, let group), .add(let data, let key, let group):
          let sealed = try sealer.seal(
            Array(data), aad: ValueSealer.credentialAAD(group: group, key: key))
          // `add` keeps a stored value: the write transaction makes it atomic across processes.
          let verb: String
          if case .add = change { verb = "INSERT OR IGNORE" } else { verb = "INSERT OR REPLACE" }
          statements.append(
            (
              "\(verb) INTO credentials (access_group, name, sealed) VALUES (?, ?, ?)",
              [.text(group.rawValue), .text(key.rawValue), .blob(sealed)]
            ))
        case .remove(let key, let group):
          statements.append(
            (
              "DELETE FROM credentials WHERE access_group = ? AND name = ?",
              [.text(group.rawValue), .text(key.rawValue)]
            ))
        }
      }
      let operation = batch.changes.count == 1 ? "writing one value" : "writing a batch"
      try connection.withLock { (connection) throws(SecureStoreError) in
        try connection.writeTransaction(operation: operation) { () throws(SecureStoreError) in
          for statement in statements {
            try connection.query(statement.sql, statement.parameters, operation: operation)
          }
        }
      }
    }

    // MARK: - Opening

    private static func milliseconds(_ duration: Duration) -> Int32 {
      let (seconds, attoseconds) = duration.components
      let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
      return Int32(clamping: max(0, total))
    }

    private static func makeDirectory(_ path: String) throws(SecureStoreError) {
      if mkdir(path, 0o700) == 0 || errno == EEXIST { return }
      guard errno == ENOENT else { throw POSIX.error("creating the store directory") }
      do {
        try FileManager.default.createDirectory(
          atPath: (path as NSString).deletingLastPathComponent,
          withIntermediateDirectories: true)
      } catch {
        throw SecureStoreError(.storageFailed, "creating the parent of the store directory failed")
      }
      guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
        throw POSIX.error("creating the store directory")
      }
    }

    /// Creates an empty database file with mode 0600 when none exists; SQLite gives the `-wal`
    /// and `-shm` files the same mode.
    private static func createDatabaseFile(_ path: String) throws(SecureStoreError) {
      let fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o600)
      if fd >= 0 {
        close(fd)
        return
      }
      // An existing, read-only database is fine: the store then opens read-only.
      let createError = errno
      if access(path, F_OK) == 0 { return }
      throw POSIX.error("creating the database file", errno: createError)
    }

    /// Prepares the schema and the master key, and proves the key with the check value.
    private static func setUp(
      _ connection: SQLiteConnection, keySource: MasterKeySource, directoryPath: String
    ) throws(SecureStoreError) -> MasterKey {
      do throws(SecureStoreError) {
        if !connection.isReadOnly {
          let mode = try connection.query("PRAGMA journal_mode = WAL", operation: "enabling WAL")
          guard mode.first?.first == .text("wal") else {
            throw SecureStoreError(.storageFailed, "the database refused WAL journal mode")
          }
          try connection.query("PRAGMA synchronous = FULL", operation: "configuring durability")
          // The WAL file is kept between connections (see `persistWriteAheadLog`); after each
          // checkpoint it is cut back to 1 MiB instead of staying at its high-water mark.
          try connection.query(
            "PRAGMA journal_size_limit = 1048576", operation: "configuring the WAL size")
        }
        return try connection.writeTransaction(operation: "initialising the store") {
          () throws(SecureStoreError) in
          let version = try schemaVersion(connection)
          if version == 0 {
            try connection.query(
              """
              CREATE TABLE IF NOT EXISTS meta (
                name TEXT PRIMARY KEY NOT NULL, value BLOB NOT NULL) WITHOUT ROWID
              """, operation: "creating the schema")
            try connection.query(
              """
              CREATE TABLE IF NOT EXISTS credentials (
                access_group TEXT NOT NULL, name TEXT NOT NULL, sealed BLOB NOT NULL,
                PRIMARY KEY (access_group, name)) WITHOUT ROWID
              """, operation: "creating the schema")
          }
          let check = try checkValue(connection)
          let key = try masterKey(keySource, directoryPath: directoryPath, mayCreate: check == nil)
          let sealer = ValueSealer(key: key)
          if let check {
            try verify(check, with: sealer)
          } else {
            try connection.query(
              "INSERT INTO meta (name, value) VALUES ('check', ?)",
              [.blob(try sealer.seal(Array(checkPlaintext.utf8), aad: checkAAD))],
              operation: "writing the key check value")
          }
          if version == 0 {
            try connection.query(
              "PRAGMA user_version = \(Self.schemaVersion)", operation: "creating the schema")
          }
          return key
        }
      } catch let error where error.code == .readOnly {
        return try setUpReadOnly(
          connection, keySource: keySource, directoryPath: directoryPath, error: error)
      }
    }

    /// Opens an existing store whose files cannot be written: nothing is created.
    private static func setUpReadOnly(
      _ connection: SQLiteConnection, keySource: MasterKeySource, directoryPath: String,
      error: SecureStoreError
    ) throws(SecureStoreError) -> MasterKey {
      guard try schemaVersion(connection) != 0, let check = try checkValue(connection) else {
        throw error
      }
      let key = try masterKey(keySource, directoryPath: directoryPath, mayCreate: false)
      try verify(check, with: ValueSealer(key: key))
      return key
    }

    private static let checkPlaintext = "ServerBeeKit SecureStore master key check"
    private static let checkAAD = ValueSealer.metaAAD(name: "check")

    private static func schemaVersion(_ connection: SQLiteConnection) throws(SecureStoreError)
      -> Int64
    {
      let rows = try connection.query("PRAGMA user_version", operation: "reading the schema")
      guard case .integer(let version) = rows.first?.first else { return 0 }
      guard version <= Int64(Self.schemaVersion) else {
        throw SecureStoreError(
          .unsupportedFormat,
          "the database has schema version \(version); this SDK reads up to \(Self.schemaVersion)")
      }
      return version
    }

    private static func checkValue(_ connection: SQLiteConnection) throws(SecureStoreError)
      -> [UInt8]?
    {
      let tables = try connection.query(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'",
        operation: "reading the schema")
      guard !tables.isEmpty else { return nil }
      let rows = try connection.query(
        "SELECT value FROM meta WHERE name = 'check'", operation: "reading the key check value")
      guard let row = rows.first else { return nil }
      guard case .blob(let sealed) = row.first else { return [] }
      return sealed
    }

    private static func verify(_ check: [UInt8], with sealer: ValueSealer)
      throws(SecureStoreError)
    {
      guard let opened = try sealer.open(check, aad: checkAAD),
        opened == Array(checkPlaintext.utf8)
      else {
        throw SecureStoreError(
          .wrongMasterKey, "the master key does not open this store; nothing was changed")
      }
    }

    private static func masterKey(
      _ source: MasterKeySource, directoryPath: String, mayCreate: Bool
    ) throws(SecureStoreError) -> MasterKey {
      switch source {
      case .supplied(let data):
        return try MasterKey(copying: data)
      case .keyFile:
        let path = "\(directoryPath)/\(keyFileName)"
        if let key = try MasterKeyFile.load(at: path) { return key }
        guard mayCreate else {
          throw SecureStoreError(
            .wrongMasterKey,
            "the master key file is missing but the database holds sealed values; nothing was changed"
          )
        }
        return try MasterKeyFile.create(
          at: path, directory: directoryPath, key: try MasterKey.random())
      }
    }
  }
#endif
