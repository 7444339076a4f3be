import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import Testing

@testable import SecureStore

/// The two stores that run everywhere; every contract test runs against both.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
  case inMemory
  case encryptedSQLite
  /// `KeychainCredentialStore`'s rules over a fake Keychain (`FakeKeychainItems`).
  case keychainLogic

  var testDescription: String { rawValue }
}

/// A class box for a `TemporaryDirectory`, which is `~Copyable` and so cannot be a stored
/// property of a suite struct. The directory is removed when the box is released.
final class ScratchDirectory {
  private let temporary: TemporaryDirectory
  let url: URL

  init() throws {
    temporary = try TemporaryDirectory()
    url = temporary.url
  }
}

/// A store together with the temporary directory it lives in (removed when released).
final class StoreFixture {
  let directory: ScratchDirectory
  let store: any CredentialStore

  init(_ kind: StoreKind) throws {
    directory = try ScratchDirectory()
    switch kind {
    case .inMemory:
      store = InMemoryCredentialStore()
    case .encryptedSQLite:
      store = try EncryptedSQLiteCredentialStore(
        directory: directory.url.appendingPathComponent("store", isDirectory: true))
    case .keychainLogic:
      store = KeychainItemStore(
        service: "dev.serverbee.tests", sharedAccessGroup: "TEAM.dev.serverbee.shared",
        appAccessGroup: nil, items: FakeKeychainItems())
    }
  }
}

/// A typed record like the ones AuthSession stores.
struct SampleLoginRecord: Codable, Equatable {
  var userID: String
  var refreshToken: Data
  var issuedAt: Date
  var scopes: [String]?
}

/// Expects `body` to throw a ``SecureStoreError`` with `code`.
func expectStoreError(
  _ code: SecureStoreError.Code, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Void
) {
  let error = #expect(throws: SecureStoreError.self, sourceLocation: sourceLocation) {
    try body()
  }
  #expect(
    error?.code == code, "\(error.map { "\($0)" } ?? "no error")", sourceLocation: sourceLocation)
}

extension Data {
  /// UTF-8 bytes of a string, for readable test values.
  init(text: String) { self = Data(text.utf8) }
}
