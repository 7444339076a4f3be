public import Foundation
public import SecureStore
import ServerBeeModels

/// Whether this installation's user read the push privacy notice (``PushPrivacyNotice``), kept
/// in the app-private group of the credential store.
///
/// It belongs to the installation, not to a login: signing out or another account keeps it.
/// An acknowledgment of an older ``PushPrivacyNotice/version`` does not count.
///
/// ```swift
/// let record = PushPrivacyNoticeRecord(store: store)
/// if try await !record.isAcknowledged() {
///   show(PushPrivacyNotice.current.text(in: .english))
///   try await record.acknowledge()
/// }
/// ```
public actor PushPrivacyNoticeRecord {
  /// The store key of the record.
  static let storeKey: CredentialKey = "serverbee_push_privacy_notice"

  struct Stored: Codable, Equatable {
    var version: Int
    /// Unix seconds.
    var acknowledgedAt: Int64

    enum CodingKeys: String, CodingKey {
      case version
      case acknowledgedAt = "acknowledged_at"
    }
  }

  private let store: any CredentialStore
  private let executor: CredentialStoreExecutor
  private let now: @Sendable () -> Date

  /// Creates a record over a store.
  /// - Parameters:
  ///   - store: The credential store.
  ///   - now: The clock, for the time of an acknowledgment.
  public init(store: any CredentialStore, now: @escaping @Sendable () -> Date = Date.init) {
    self.store = store
    self.executor = store.callerExecutor
    self.now = now
  }

  /// The store's caller executor: the store's synchronous calls never hold a thread of the
  /// cooperative pool.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// Whether `notice` (or a later version of it) was acknowledged here.
  /// - Parameter notice: The notice; ``PushPrivacyNotice/current`` by default.
  /// - Returns: `true` once acknowledged.
  /// - Throws: ``NotificationPreferencesError`` `.storageFailed` when the store cannot be read.
  public func isAcknowledged(_ notice: PushPrivacyNotice = .current) throws -> Bool {
    do {
      let stored = try store.value(Stored.self, forKey: Self.storeKey, in: .appPrivate)
      return (stored?.version ?? 0) >= notice.version
    } catch {
      throw NotificationPreferencesError(
        .storageFailed, "the privacy notice record could not be read", underlying: error)
    }
  }

  /// Records that the user read `notice`.
  /// - Parameter notice: The notice shown; ``PushPrivacyNotice/current`` by default.
  /// - Throws: ``NotificationPreferencesError`` `.storageFailed` when the store cannot be
  ///   written.
  public func acknowledge(_ notice: PushPrivacyNotice = .current) throws {
    let stored = Stored(
      version: notice.version, acknowledgedAt: Int64(now().timeIntervalSince1970.rounded(.down)))
    do {
      try store.setValue(stored, forKey: Self.storeKey, in: .appPrivate)
    } catch {
      throw NotificationPreferencesError(
        .storageFailed, "the privacy notice record could not be saved", underlying: error)
    }
  }
}
