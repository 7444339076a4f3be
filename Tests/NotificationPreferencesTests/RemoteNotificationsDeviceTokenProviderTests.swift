import Foundation
import NotificationPreferences
import ServerBeeModels
import Testing

/// The APNs token hand-over, portable and tested here although only Apple platforms call
/// `registerForRemoteNotifications()`.
@Suite(.timeLimit(.minutes(5))) struct RemoteNotificationsDeviceTokenProviderTests {
  @Test func aTokenDeliveredWhileRegisteringIsNotLost() async throws {
    let box = Locked<RemoteNotificationsDeviceTokenProvider?>(nil)
    let provider = RemoteNotificationsDeviceTokenProvider(environment: .production) {
      // The delegate answers before the provider starts waiting.
      box.withLock { $0 }?.deliver(Data([0xAB, 0x01]))
    }
    box.withLock { $0 = provider }
    let token = try await provider.deviceToken()
    #expect(token == PushDeviceToken(hex: "ab01", environment: .production))
  }

  @Test func aTokenDeliveredLaterReachesEveryWaiter() async throws {
    let registered = AsyncStream<Void>.makeStream()
    let provider = RemoteNotificationsDeviceTokenProvider(environment: .sandbox) {
      registered.continuation.yield()
    }
    async let first = provider.deviceToken()
    var iterator = registered.stream.makeAsyncIterator()
    _ = await iterator.next()
    provider.deliver(Data([0x00, 0xFF]))
    #expect(try await first == PushDeviceToken(hex: "00ff", environment: .sandbox))
  }

  @Test func aRegistrationFailureIsThrownToTheWaiter() async throws {
    struct Refused: Error {}
    let registered = AsyncStream<Void>.makeStream()
    let provider = RemoteNotificationsDeviceTokenProvider(environment: .sandbox) {
      registered.continuation.yield()
    }
    let first = Task { try await provider.deviceToken() }
    var iterator = registered.stream.makeAsyncIterator()
    _ = await iterator.next()
    provider.fail(Refused())
    await #expect(throws: Refused.self) { _ = try await first.value }
  }

  @Test func theDescriptionLeavesTheTokenOut() {
    let token = PushDeviceToken(bytes: [0xDE, 0xAD, 0xBE, 0xEF], environment: .production)
    #expect(!String(describing: token).contains("deadbeef"))
  }

  @Test func noAnswerEndsTheWaitWithATypedErrorInsteadOfHanging() async throws {
    let provider = RemoteNotificationsDeviceTokenProvider(
      environment: .production, timeout: .milliseconds(50)
    ) {}
    let error = await #expect(throws: NotificationPreferencesError.self) {
      _ = try await provider.deviceToken()
    }
    #expect(error?.code == .deviceTokenUnavailable)
    #expect(error?.message.contains("push entitlement") == true)
    // An answer after the wait ended resumes nobody twice.
    provider.deliver(Data([0x01]))
  }
}
