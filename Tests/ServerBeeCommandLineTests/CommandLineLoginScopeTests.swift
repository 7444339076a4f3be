import Foundation
import SecureStore
import ServerBeeRelay
import Testing

/// `serverbee logout` takes the login's push values with it: the home's store, read
/// raw after the command, holds no content key, registration record or test any more.
@Suite(.timeLimit(.minutes(5))) struct CommandLineLoginScopeTests {
  /// The values by their stored names.
  static let slots: [CredentialSlot] = [
    CredentialSlot("serverbee_active_push_content_key", in: .sharedWithExtension),
    CredentialSlot("serverbee_notification_registration", in: .appPrivate),
    CredentialSlot("serverbee_pending_test_push", in: .appPrivate),
  ]

  /// The slots that hold a value in the home's store.
  static func held(in world: CommandLineWorld) throws -> [CredentialKey] {
    let store = try EncryptedSQLiteCredentialStore(directory: world.home())
    return try slots.filter { try store.data(forKey: $0.key, in: $0.group) != nil }.map(\.key)
  }

  /// Signs in, enables notifications and sends a test: every value is stored.
  static func signedInWithATest(_ world: CommandLineWorld) async throws {
    try await world.logInWithNotifications()
    let test = try await world.serverbee(["notifications", "test"])
    #expect(test.status == 0, "\(test.stderr)")
    #expect(try held(in: world) == slots.map(\.key))
  }

  @Test(arguments: [false, true])
  func logoutRemovesThePushValuesOnlineAndOffline(offline: Bool) async throws {
    let world = try await CommandLineWorld()
    try await Self.signedInWithATest(world)
    if offline { await world.simulator.stop() }
    let logout = try await world.serverbee(["logout", "--json"])
    #expect(logout.status == 0, "\(logout.stderr)")
    #expect(logout.stdout.contains(offline ? "pending_cleanup" : "completed"), "\(logout.stdout)")
    #expect(try Self.held(in: world) == [])
  }
}
