import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import AuthSession

/// An in-memory store that records the name of the thread each call runs on.
private final class ThreadRecordingStore: CredentialStore {
  let inner = InMemoryCredentialStore()
  let threads = Locked<[String]>([])

  private func record() { threads.withLock { $0.append(Thread.current.name ?? "") } }

  func data(forKey key: CredentialKey, in group: AccessGroup) throws -> Data? {
    record()
    return try inner.data(forKey: key, in: group)
  }

  func keys(in group: AccessGroup) throws -> [CredentialKey] {
    record()
    return try inner.keys(in: group)
  }

  func commit(_ batch: CredentialBatch) throws {
    record()
    try inner.commit(batch)
  }
}

@Suite(.timeLimit(.minutes(5))) struct AuthClientThreadingTests {
  /// The store is synchronous and may block (fsync, busy timeout): every call the client makes
  /// runs on SecureStore's store thread, never on a thread of the cooperative pool.
  @Test func everyStoreCallRunsOnTheStoreThread() async throws {
    let store = ThreadRecordingStore()
    let http = StubHTTPTransport()
    let clock = ManualClock()
    let client = AuthClient(
      configuration: .init(deviceName: "Test phone", refreshesProactively: false), store: store,
      transport: http, clock: clock, now: { clock.currentDate },
      randomBytes: { [UInt8](repeating: 1, count: $0) }, makeUUID: { UUID() })
    await http.expect(.post, "/api/mobile/auth/login", reply: .json(200, Wire.tokens()))
    _ = try await client.login(server: Wire.server, username: "ada", password: "pw")
    clock.advance(by: .seconds(900))  // the access token has expired
    await http.expect(
      .post, "/api/mobile/auth/refresh",
      reply: .json(200, Wire.tokens(access: "access-2", refresh: "refresh-2")))
    let tokens = await withTaskGroup(of: String?.self) { group in
      for _ in 0..<20 { group.addTask { try? await client.validAccessToken() } }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(tokens == Array(repeating: "access-2", count: 20))
    let threads = store.threads.withLock { $0 }
    #expect(threads.count >= 3, "restore, login and refresh used the store")
    #expect(Set(threads) == ["ServerBee.Store"], "\(Set(threads))")
    await http.verifyAllConsumed()
  }
}
