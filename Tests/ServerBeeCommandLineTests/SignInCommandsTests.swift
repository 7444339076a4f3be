import AuthSession
import Foundation
import SecureStore
import ServerBeeKit
import ServerBeeModels
import ServerBeeSimulator
import ServerBeeSocketTransport
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import ServerBeeCommandLine

/// Sends to an in-process simulator; chosen paths fail as if the network dropped, either before
/// the request left (`refused`) or after the server handled it (`answerLost`).
private final class FlakyTransport: HTTPTransport {
  let simulator: Simulator
  let refused = Locked<Set<String>>([])
  let answerLost = Locked<Set<String>>([])

  init(_ simulator: Simulator) { self.simulator = simulator }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let path = request.url.path
    let lost = ServerBeeTransportError(.connectionLost, "the connection dropped")
    if refused.withLock({ $0.contains(path) }) { throw lost }
    let response = await simulator.handle(request)
    if answerLost.withLock({ $0.contains(path) }) { throw lost }
    return response
  }
}

/// `login` and `pair` when a step after the server's answer fails, or the answer is lost.
@Suite(.timeLimit(.minutes(5))) struct SignInCommandsTests {
  static let server = "http://sim.test"

  private static func makeSimulator() throws -> (Simulator, userID: String) {
    var configuration = Simulator.Configuration()
    configuration.metricsInterval = nil
    let simulator = try Simulator(configuration: configuration)
    let id = try simulator.createUser(username: "admin", password: "pw", role: "admin")
    return (simulator, id)
  }

  private static func session(_ transport: FlakyTransport, store: any CredentialStore)
    -> ClientSession
  {
    let client = ServerBeeClient(
      store: store, configuration: .init(deviceName: "test CLI"), http: transport,
      webSocket: SocketWebSocketTransport())
    return ClientSession(
      home: URL(fileURLWithPath: "/nonexistent"), client: client, auth: client.auth,
      http: client.http, api: client.authorizedHTTP,
      console: Console(
        stdoutIsTerminal: false, stderrIsTerminal: false, stdinIsTerminal: false, json: true))
  }

  private static func control(_ simulator: Simulator, _ method: HTTPMethod, _ path: String)
    async -> HTTPResponse
  {
    await simulator.handle(
      HTTPRequest(
        method: method, url: URL(fileURLWithPath: "/").appendingPathComponent(path),
        headers: ["x-simulator-token": simulator.controlToken, "content-type": "application/json"],
        body: Data("{}".utf8)))
  }

  @Test func aFailedFirstRefreshKeepsTheLoginAndIsNoFailure() async throws {
    let (simulator, _) = try Self.makeSimulator()
    let transport = FlakyTransport(simulator)
    let session = Self.session(transport, store: InMemoryCredentialStore())
    guard
      case .signedIn(let identity) = try await session.auth.login(
        server: Self.server, username: "admin", password: "pw")
    else { throw CommandLineError(.unexpectedAnswer, "not signed in") }
    transport.refused.withLock { _ = $0.insert("/api/mobile/auth/refresh") }

    let proof = try await SignInCommands.confirmDeletionProof(session.auth)
    guard case .failed(let reason) = proof else {
      Issue.record("expected a failure, got \(proof)")
      return
    }
    #expect(reason.hasPrefix("cannot reach the server"))
    try await SignInCommands.finish(identity, session: session, verb: "Signed in as")
    #expect(session.auth.currentState == .signedIn(identity))

    transport.refused.withLock { $0.removeAll() }
    #expect(try await SignInCommands.confirmDeletionProof(session.auth) == .confirmed)
  }

  @Test func aFirstRefreshTheServerRejectsIsAFailureAndNothingClaimsASignIn() async throws {
    let (simulator, _) = try Self.makeSimulator()
    let session = Self.session(FlakyTransport(simulator), store: InMemoryCredentialStore())
    guard
      case .signedIn(let identity) = try await session.auth.login(
        server: Self.server, username: "admin", password: "pw"),
      let sessionID = identity.mobileSessionID
    else { throw CommandLineError(.unexpectedAnswer, "not signed in") }
    _ = await Self.control(simulator, .delete, "/__simulator/mobile-sessions/\(sessionID)")
    await #expect(throws: AuthSessionError.self) {
      try await SignInCommands.finish(identity, session: session, verb: "Signed in as")
    }
    #expect(session.auth.currentState == .recoveryRequired(identity))
  }

  @Test func aSessionLeftByASignInWhoseAnswerWasLostIsRevokedAtTheNextSignIn() async throws {
    let (simulator, userID) = try Self.makeSimulator()
    let transport = FlakyTransport(simulator)
    let store = InMemoryCredentialStore()
    let session = Self.session(transport, store: store)
    transport.answerLost.withLock { _ = $0.insert("/api/mobile/auth/login") }
    await #expect(throws: AuthSessionError.self) {
      try await SignInAttempts.record(server: Self.server, username: "admin", in: store) {
        try await session.auth.login(server: Self.server, username: "admin", password: "pw")
      }
    }
    #expect(session.auth.currentState == .signedOut)
    let recorded = SignInAttempts.pending(in: store)
    #expect(recorded.map(\.server) == [Self.server] && recorded.first?.username == "admin")
    let key = await Self.control(simulator, .post, "/__simulator/users/\(userID)/api-key")
    let apiKey = try #require(
      try WireJSON.decode(JSONValue.self, from: key.body)["api_key"]?.stringValue)
    func devices() async throws -> [MobileDevice] {
      let answer = await simulator.handle(
        HTTPRequest(
          url: URL(fileURLWithPath: "/api/mobile/auth/devices"), headers: ["x-api-key": apiKey]))
      return try APIResponse<[MobileDevice]>.payload(status: answer.status, body: answer.body)
    }
    #expect(try await devices().count == 1, "the server kept a session nobody knows about")

    transport.answerLost.withLock { $0.removeAll() }
    let outcome = try await SignInAttempts.record(
      server: Self.server, username: "admin", in: store
    ) {
      try await session.auth.login(server: Self.server, username: "admin", password: "pw")
    }
    guard case .signedIn(let identity) = outcome else {
      throw CommandLineError(.unexpectedAnswer, "not signed in")
    }
    try await SignInCommands.finish(identity, session: session, verb: "Signed in as")
    #expect(try await devices().map(\.id) == [identity.mobileSessionID])
    #expect(SignInAttempts.pending(in: store).isEmpty)
  }

  @Test func aSignInTheServerRefusedLeavesNoAttempt() async throws {
    let (simulator, _) = try Self.makeSimulator()
    let store = InMemoryCredentialStore()
    let session = Self.session(FlakyTransport(simulator), store: store)
    await #expect(throws: AuthSessionError.self) {
      try await SignInAttempts.record(server: Self.server, username: "admin", in: store) {
        try await session.auth.login(server: Self.server, username: "admin", password: "wrong")
      }
    }
    #expect(SignInAttempts.pending(in: store).isEmpty)
  }
}
