import AuthSession
import Foundation
import SecureStore
import ServerBeeKit
import ServerBeeModels
import ServerBeeSimulator
import ServerBeeSocketTransport
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

/// Makes the simulator look like a v1 server to the client: token answers lose
/// `mobile_session_id` and `revocation_token` (Protocol/Auth.md §2: both are absent from v1).
/// The simulator has no v1 mode; everything else it answers is unchanged.
private struct V1TokenAnswers: HTTPTransport {
  let base: any HTTPTransport

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var response = try await base.send(request)
    guard request.url.path.hasPrefix("/api/mobile/auth/"), response.status == 200,
      case .object(var envelope) = try WireJSON.decode(JSONValue.self, from: response.body),
      let index = envelope.firstIndex(where: { $0.key == "data" }),
      case .object(let members) = envelope[index].value
    else { return response }
    let stripped = members.filter { $0.key != "mobile_session_id" && $0.key != "revocation_token" }
    envelope[index].value = .object(stripped)
    response.body = try WireJSON.encode(JSONValue.object(envelope))
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

  private static func session(_ transport: any HTTPTransport, store: any CredentialStore)
    -> ClientSession
  {
    let client = ServerBeeClient(
      store: store, configuration: .init(deviceName: "test CLI"),
      transports: .init(http: transport, webSocket: SocketWebSocketTransport()),
      push: .localRelayDevice)
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

  /// The account's sessions as the server sees them (through an API key, not the client).
  private static func devices(_ simulator: Simulator, userID: String) async throws
    -> [MobileDevice]
  {
    let key = await control(simulator, .post, "/__simulator/users/\(userID)/api-key")
    let apiKey = try #require(
      try WireJSON.decode(JSONValue.self, from: key.body)["api_key"]?.stringValue)
    let answer = await simulator.handle(
      HTTPRequest(
        url: URL(fileURLWithPath: "/api/mobile/auth/devices"), headers: ["x-api-key": apiKey]))
    return try APIResponse<[MobileDevice]>.payload(status: answer.status, body: answer.body)
  }

  @Test func aSessionLeftByASignInWhoseAnswerWasLostIsRevokedAtTheNextSignIn() async throws {
    let (simulator, userID) = try Self.makeSimulator()
    let transport = FlakyTransport(simulator)
    let session = Self.session(transport, store: InMemoryCredentialStore())
    transport.answerLost.withLock { _ = $0.insert("/api/mobile/auth/login") }
    await #expect(throws: AuthSessionError.self) {
      try await session.auth.login(server: Self.server, username: "admin", password: "pw")
    }
    #expect(session.auth.currentState == .signedOut)
    let recorded = try await session.auth.pendingSignInAttempts()
    #expect(recorded.map(\.server.string) == [Self.server] && recorded.first?.username == "admin")
    #expect(
      try await Self.devices(simulator, userID: userID).count == 1,
      "the server kept a session nobody knows about")

    transport.answerLost.withLock { $0.removeAll() }
    let outcome = try await session.auth.login(
      server: Self.server, username: "admin", password: "pw")
    guard case .signedIn(let identity) = outcome else {
      throw CommandLineError(.unexpectedAnswer, "not signed in")
    }
    try await SignInCommands.finish(identity, session: session, verb: "Signed in as")
    #expect(
      try await Self.devices(simulator, userID: userID).map(\.id) == [identity.mobileSessionID])
    #expect(try await session.auth.pendingSignInAttempts().isEmpty)
  }

  @Test func onAV1ServerTheNewSessionSurvivesAndTheOrphanStaysTracked() async throws {
    let (simulator, userID) = try Self.makeSimulator()
    let flaky = FlakyTransport(simulator)
    let store = InMemoryCredentialStore()
    let session = Self.session(V1TokenAnswers(base: flaky), store: store)
    flaky.answerLost.withLock { _ = $0.insert("/api/mobile/auth/login") }
    await #expect(throws: AuthSessionError.self) {
      try await session.auth.login(server: Self.server, username: "admin", password: "pw")
    }
    flaky.answerLost.withLock { $0.removeAll() }
    guard
      case .signedIn(let identity) = try await session.auth.login(
        server: Self.server, username: "admin", password: "pw")
    else { throw CommandLineError(.unexpectedAnswer, "not signed in") }
    #expect(identity.mobileSessionID == nil, "the client saw a v1 token answer")

    try await SignInCommands.finish(identity, session: session, verb: "Signed in as")
    #expect(try await Self.devices(simulator, userID: userID).count == 2, "nothing was revoked")
    #expect(try await session.auth.pendingSignInAttempts().count == 1)

    // The next command: it restores the login, sweeps again, and is still signed in.
    let next = Self.session(V1TokenAnswers(base: flaky), store: store)
    try await next.prepare()
    #expect(next.auth.currentState == .signedIn(identity))
    let me = try await next.api.send(
      HTTPRequest(url: try ServerURL(Self.server).endpoint("/api/auth/me")))
    #expect(me.status == 200)
    guard case .skipped(.serverDoesNotIdentifySessions) = await next.auth.sweepInterruptedSignIns()
    else {
      Issue.record("expected the sweep to be skipped")
      return
    }
  }

  @Test func onlyARemovalOrASkippedSweepIsWorthALine() {
    #expect(
      ClientSession.sentence(for: .cleaned(revokedSessionCount: 2, resolvedAttemptCount: 1))
        == "removed 2 session(s) an interrupted sign-in had left on the server")
    #expect(
      ClientSession.sentence(for: .skipped(.serverDoesNotIdentifySessions))
        == "this server does not identify sessions; interrupted sign-ins were not cleaned up")
    #expect(
      ClientSession.sentence(for: .cleaned(revokedSessionCount: 0, resolvedAttemptCount: 1)) == nil)
    #expect(ClientSession.sentence(for: .nothingPending) == nil)
    #expect(ClientSession.sentence(for: .skipped(.notSignedIn)) == nil)
  }

  @Test func aSignInTheServerRefusedLeavesNoAttempt() async throws {
    let (simulator, _) = try Self.makeSimulator()
    let session = Self.session(FlakyTransport(simulator), store: InMemoryCredentialStore())
    await #expect(throws: AuthSessionError.self) {
      try await session.auth.login(server: Self.server, username: "admin", password: "wrong")
    }
    #expect(try await session.auth.pendingSignInAttempts().isEmpty)
  }
}
