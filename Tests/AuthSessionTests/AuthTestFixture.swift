import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import AuthSession

/// Counts calls from any task (tests only).
final class Counter: @unchecked Sendable {
  // Safe: `value` is only touched with `lock` held.
  private let lock = NSLock()
  private var value = 0

  func next() -> Int {
    lock.withLock {
      value += 1
      return value
    }
  }
  var count: Int { lock.withLock { value } }
}

/// Known values used across the suites.
enum Wire {
  static let server = "https://monitor.example.com"
  static let userID = "6a1f0000-0000-4000-8000-000000000001"
  static let otherUserID = "6a1f0000-0000-4000-8000-000000000002"
  static let sessionID = "5b0f0000-0000-4000-8000-00000000000a"
  static let otherSessionID = "5b0f0000-0000-4000-8000-00000000000b"
  static let revocationToken = "RvkLoginToken0000000000000000000000000000000"
  static let proofBytes = [UInt8](repeating: 0xA5, count: 32)
  static let proof = RevocationProof.make(from: proofBytes)

  /// A `{"data": MobileTokenResponse}` body.
  static func tokens(
    access: String = "access-1", refresh: String = "refresh-1", sessionID: String? = sessionID,
    revocation: String? = revocationToken, userID: String = userID, username: String = "ada",
    accessSeconds: Int = 900
  ) -> String {
    var fields: [String] = []
    if let sessionID { fields.append(#""mobile_session_id":"\#(sessionID)""#) }
    fields += [
      #""access_token":"\#(access)""#, #""access_expires_in_secs":\#(accessSeconds)"#,
      #""refresh_token":"\#(refresh)""#, #""refresh_expires_in_secs":2592000"#,
      #""token_type":"Bearer""#,
    ]
    if let revocation { fields.append(#""revocation_token":"\#(revocation)""#) }
    fields.append(#""user":{"id":"\#(userID)","username":"\#(username)","role":"admin"}"#)
    return #"{"data":{"# + fields.joined(separator: ",") + "}}"
  }

  static func error(_ code: String, _ message: String) -> String {
    #"{"error":{"code":"\#(code)","message":"\#(message)"}}"#
  }

  static func pairing(server: String = server, code: String = "sb_pair_abc") -> String {
    #"{"type":"serverbee_pair","server_url":"\#(server)","code":"\#(code)"}"#
  }
}

/// A fresh client with stub seams: transport, in-memory store, manual clock.
struct AuthFixture {
  let http = StubHTTPTransport()
  let store: InMemoryCredentialStore
  let clock = ManualClock()
  let client: AuthClient
  let uuids = Counter()

  init(
    store: InMemoryCredentialStore = InMemoryCredentialStore(),
    configuration: AuthClient.Configuration = .init(deviceName: "Test phone")
  ) {
    self.store = store
    let clock = self.clock
    let uuids = self.uuids
    client = AuthClient(
      configuration: configuration, store: store, transport: http, clock: clock,
      now: { clock.currentDate },
      randomBytes: { count in count == 32 ? Wire.proofBytes : [UInt8](repeating: 1, count: count) },
      makeUUID: {
        let number = uuids.next()
        return UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number)) ?? UUID()
      })
  }

  /// Logs in against the stub (v2 tokens unless `tokens` says otherwise).
  @discardableResult
  func signIn(tokens: String = Wire.tokens()) async throws -> SessionIdentity {
    await http.expect(.post, "/api/mobile/auth/login", reply: .json(200, tokens))
    let outcome = try await client.login(server: Wire.server, username: "ada", password: "pw")
    guard case .signedIn(let identity) = outcome else {
      Issue.record("login did not sign in")
      throw CancellationError()
    }
    return identity
  }

  /// Signs in and refreshes once with an echoed proof, so the login holds a confirmed proof.
  func signInWithConfirmedProof() async throws {
    try await signIn()
    await http.expect(
      .post, "/api/mobile/auth/refresh",
      reply: .json(
        200, Wire.tokens(access: "access-2", refresh: "refresh-2", revocation: Wire.proof)))
    try await client.refresh()
  }

  /// Stores `count` unresolved journal entries of an earlier login.
  func seedJournal(count: Int) throws {
    let server = try ServerURL(Wire.server)
    let entries = (0..<count).map { index in
      LogoutJournalEntry(
        id: "entry-\(index)", server: server, userID: Wire.userID, installationID: "INSTALL",
        mobileSessionID: Wire.otherSessionID, proof: "earlier-proof",
        createdAt: Date(timeIntervalSince1970: 0))
    }
    try store.setValue(entries, forKey: .logoutJournal, in: .appPrivate)
  }

  /// The stored login record.
  func storedLogin() throws -> LoginRecord? {
    try store.value(LoginRecord.self, forKey: .login, in: .appPrivate)
  }

  /// The stored logout journal.
  func storedJournal() throws -> [LogoutJournalEntry] {
    try store.value([LogoutJournalEntry].self, forKey: .logoutJournal, in: .appPrivate) ?? []
  }
}

/// The keys of a request body's JSON object.
func bodyKeys(_ request: HTTPRequest) throws -> Set<String> {
  guard case .object(let members) = try WireJSON.decode(JSONValue.self, from: request.body) else {
    return []
  }
  return Set(members.map(\.key))
}

/// The body as text.
func bodyText(_ request: HTTPRequest) -> String { String(decoding: request.body, as: UTF8.self) }

/// A string field of a request body.
func bodyField(_ request: HTTPRequest, _ key: String) throws -> String? {
  try WireJSON.decode(JSONValue.self, from: request.body)[key]?.stringValue
}

/// The code of an AuthSessionError thrown by `body`, or nil.
func authErrorCode(_ body: () async throws -> Void) async -> AuthSessionError.Code? {
  do {
    try await body()
    return nil
  } catch let error as AuthSessionError {
    return error.code
  } catch {
    return nil
  }
}
