import Foundation
import SecureStore
import ServerBeeModels
import Testing

@testable import NotificationPreferences

/// The privacy notice shown before notifications are first turned on, and the record that it
/// was read.
@Suite struct PushPrivacyNoticeTests {
  let store = InMemoryCredentialStore()

  @Test func bothLanguagesSayTheSamePoints() {
    let notice = PushPrivacyNotice.current
    #expect(notice.english.count == notice.simplifiedChinese.count)
    #expect(notice.english.count >= 5)
    #expect(notice.text(in: .english).contains("never receives the content key"))
    #expect(notice.text(in: .simplifiedChinese).contains("不会收到内容密钥或明文通知"))
  }

  @Test func aNewInstallationHasNotReadIt() async throws {
    let record = PushPrivacyNoticeRecord(store: store)
    #expect(try await !record.isAcknowledged())
  }

  @Test func anAcknowledgmentIsKeptAcrossRecords() async throws {
    try await PushPrivacyNoticeRecord(store: store, now: { Date(timeIntervalSince1970: 1_800) })
      .acknowledge()
    #expect(try await PushPrivacyNoticeRecord(store: store).isAcknowledged())
    let stored = try store.value(
      PushPrivacyNoticeRecord.Stored.self, forKey: PushPrivacyNoticeRecord.storeKey,
      in: .appPrivate)
    #expect(stored == PushPrivacyNoticeRecord.Stored(version: 1, acknowledgedAt: 1_800))
  }

  @Test func anOlderVersionDoesNotCount() async throws {
    let record = PushPrivacyNoticeRecord(store: store)
    try await record.acknowledge()
    let newer = PushPrivacyNotice(
      version: PushPrivacyNotice.current.version + 1, english: ["changed"],
      simplifiedChinese: ["已变更"])
    #expect(try await !record.isAcknowledged(newer))
    try await record.acknowledge(newer)
    #expect(try await record.isAcknowledged(newer))
    #expect(try await record.isAcknowledged(.current))
  }

  /// The notice belongs to the installation: a login change removes the login's values, not it.
  @Test func itIsNotALoginScopedValue() {
    #expect(
      !NotificationPreferencesClient.loginScopedValues.contains {
        $0.key == PushPrivacyNoticeRecord.storeKey
      })
  }
}

extension PushPrivacyNoticeTests {
  @Test func aFailedWriteIsReportedAndRecordsNothing() async throws {
    store.failWrites(with: SecureStoreError(.diskFull, "simulated"))
    let record = PushPrivacyNoticeRecord(store: store)
    let error = try await #require(throws: NotificationPreferencesError.self) {
      try await record.acknowledge()
    }
    #expect(error.code == .storageFailed)
    store.failWrites(with: nil)
    #expect(try await !record.isAcknowledged())
  }
}
