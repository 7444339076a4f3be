import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import NotificationPreferences

/// A permission that answers as scripted and counts prompts.
final class FakePushAuthorization: PushAuthorization, @unchecked Sendable {
  // @unchecked: every stored property is only touched with `lock` held.
  private let lock = NSLock()
  private var current: PushPermissionStatus
  private let answer: PushPermissionStatus
  private var prompts = 0

  init(
    _ current: PushPermissionStatus = .notDetermined, answers: PushPermissionStatus = .authorized
  ) {
    self.current = current
    self.answer = answers
  }

  var promptCount: Int { lock.withLock { prompts } }

  func status() async -> PushPermissionStatus { lock.withLock { current } }

  func requestAuthorization() async -> PushPermissionStatus {
    lock.withLock {
      prompts += 1
      if current == .notDetermined { current = answer }
      return current
    }
  }
}

/// A device token provider with a fixed token.
struct FixedDeviceTokenProvider: PushDeviceTokenProvider {
  var token = Fixture.token
  func deviceToken() async throws -> PushDeviceToken { token }
}

/// A client on fresh fakes.
struct ClientSUT {
  let http = StubHTTPTransport()
  let session = FakeSessionContext()
  let store = InMemoryCredentialStore()
  let authorization: FakePushAuthorization
  let client: NotificationPreferencesClient
  let identity: SessionIdentity

  init(
    server: String = "https://monitor.example.com", role: UserRole = .admin,
    permission: PushPermissionStatus = .notDetermined, answers: PushPermissionStatus = .authorized
  ) throws {
    authorization = FakePushAuthorization(permission, answers: answers)
    identity = try FakeSessionContext.identity(user: "ada", server: server, role: role)
    session.signIn(identity)
    client = NotificationPreferencesClient(
      transport: http, session: session, store: store, authorization: authorization,
      deviceTokens: FixedDeviceTokenProvider())
  }

  var storedKey: PushContentKey? {
    (try? store.value(
      PushContentKey.self, forKey: .pushContentKey, in: .sharedWithExtension)) ?? nil
  }

  static func reply(_ document: PushSetupResponse) -> HTTPResponse {
    let body = (try? WireJSON.encode(APIResponse(data: document))) ?? Data()
    return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: body)
  }

  func expectSettings(_ document: PushSetupResponse) async {
    await http.expect(.get, RouteCatalogue.Push.settings.template.text, reply: Self.reply(document))
  }
}

extension HTTPRequest {
  /// The JSON body as an object.
  var json: [String: Any] {
    ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:]
  }
}
