import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import AuthSession
@testable import ServerBeeSimulator

@Suite(.timeLimit(.minutes(5))) struct AuthClientSimulatorTests {
  static let refresh = "/api/mobile/auth/refresh"

  @Test func loginWithTwoFactorRotatesAndLogsOutOnline() async throws {
    let peer = try SimulatorPeer()
    let secret = "JBSWY3DPEHPK3PXP"
    try peer.simulator.createUser(
      username: "ada", password: "pw", role: "admin", totpSecret: secret)
    let client = try peer.makeClient()

    #expect(
      try await client.login(server: peer.server, username: "ada", password: "pw")
        == .twoFactorRequired)
    let outcome = try await client.login(
      server: peer.server, username: "ada", password: "pw", totpCode: peer.totpCode(secret: secret))
    guard case .signedIn(let identity) = outcome else {
      Issue.record("not signed in: \(outcome)")
      return
    }
    let sessionID = try #require(identity.mobileSessionID)
    let firstAccess = try await client.validAccessToken()
    #expect(try await peer.devices(client).map(\.id) == [sessionID])

    let rotated = try await client.refresh()
    #expect(rotated.mobileSessionID == sessionID)  // v2: stable across rotation
    #expect(try await peer.devicesStatus(bearer: firstAccess) == 401)
    let confirmed = try await client.refresh()  // the proof was echoed and confirmed
    #expect(confirmed == rotated)

    let access = try await client.validAccessToken()
    #expect(try await client.logout() == .completed)
    #expect(try await peer.devicesStatus(bearer: access) == 401)
    #expect(try await client.pendingCleanups().isEmpty)
    #expect(client.currentState == .signedOut)
  }

  @Test func pairingWithTheWebQRCodeSignsInAsItsOwner() async throws {
    let peer = try SimulatorPeer()
    let owner = try peer.simulator.createUser(username: "grace", password: "pw", role: "member")
    let client = try peer.makeClient()
    let qrText = try await peer.pairingQRText(userID: owner)
    let identity = try await client.pair(scannedPayload: qrText, expectedServer: peer.server)
    #expect(identity.user.id == owner && identity.user.role == .member)
    #expect(try await peer.devices(client).count == 1)
    // The code is single use.
    try await client.forgetForTest()
    #expect(
      await codeOf { _ = try await client.pair(scannedPayload: qrText) } == .pairingCodeRejected)
  }

  @Test func concurrentRequestsAfterExpiryCauseOneRefreshAtTheServer() async throws {
    let peer = try SimulatorPeer()
    try peer.simulator.createUser(username: "ada", password: "pw", role: "admin")
    let client = try peer.makeClient()
    _ = try await client.login(server: peer.server, username: "ada", password: "pw")
    peer.serverClock.advance(by: 901)  // the server expired the access token; the client has not
    let api = AuthorizedHTTPTransport(wrapping: peer.wire, client: client)
    let url = try #require(URL(string: peer.server + "/api/mobile/auth/devices"))
    let statuses = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<30 {
        group.addTask { (try? await api.send(HTTPRequest(url: url)))?.status ?? -1 }
      }
      var statuses: [Int] = []
      for await status in group { statuses.append(status) }
      return statuses
    }
    #expect(statuses == Array(repeating: 200, count: 30))
    #expect(await peer.wire.count(Self.refresh) == 1)

    // Proactive expiry handling: with both clocks past the lead time, the next token is fresh.
    peer.advance(seconds: 850)
    _ = try await client.validAccessToken()
    #expect(await peer.wire.count(Self.refresh) == 2)
  }

  @Test func logoutWhileTheServerIsDownCompletesWhenItComesBack() async throws {
    let peer = try SimulatorPeer()
    try peer.simulator.createUser(username: "ada", password: "pw", role: "admin")
    let client = try peer.makeClient()
    _ = try await client.login(server: peer.server, username: "ada", password: "pw")
    try await client.refresh()  // confirms a deletion proof
    let access = try await client.validAccessToken()

    peer.simulator.stop()
    #expect(try await client.logout() == .pendingCleanup)
    #expect(client.currentState == .signedOut)
    #expect(try await client.pendingCleanups().count == 1)
    #expect(try await client.completePendingCleanups().failed.count == 1)

    _ = try peer.simulator.start(port: peer.port)
    let report = try await client.completePendingCleanups()
    #expect(report.settled.count == 1 && report.failed.isEmpty)
    #expect(try await client.pendingCleanups().isEmpty)
    #expect(try await peer.devicesStatus(bearer: access) == 401)
  }

  @Test func aLostRefreshAnswerIsCleanedUpWithTheConsumedRefreshToken() async throws {
    let peer = try SimulatorPeer()
    try peer.simulator.createUser(username: "ada", password: "pw", role: "admin")
    await peer.wire.answerLoginsLikeAV1Server()  // a login made before the server's upgrade
    let client = try peer.makeClient()
    _ = try await client.login(server: peer.server, username: "ada", password: "pw")
    await peer.wire.loseNextResponse(to: Self.refresh)
    let lost = await codeOf { try await client.refresh() }
    #expect(lost == .networkFailure)  // the server rotated; the client kept the old pair

    #expect(try await client.logout() == .completed)
    #expect(client.currentState == .signedOut)
    #expect(await peer.wire.count("/api/mobile/auth/revoke") == 1)
    // The server session is gone: a fresh login sees only itself.
    await peer.wire.answerLoginsLikeAV1Server(false)
    let other = try peer.makeClient(store: InMemoryCredentialStore())
    _ = try await other.login(server: peer.server, username: "ada", password: "pw")
    let devices = try await peer.devices(other)
    #expect(devices.count == 1)
    #expect(devices.first?.id == other.currentState.identity?.mobileSessionID)
  }

  @Test func passwordRecoveryDeletesTheRejectedSession() async throws {
    let peer = try SimulatorPeer()
    try peer.simulator.createUser(username: "ada", password: "pw", role: "admin")
    let client = try peer.makeClient()
    let identity = try #require(
      try await client.login(server: peer.server, username: "ada", password: "pw").identity)
    // The first refresh answer is lost after the server rotated, so the client's refresh token is
    // consumed and its next refresh is rejected, without a confirmed proof.
    await peer.wire.loseNextResponse(to: Self.refresh)
    _ = await codeOf { try await client.refresh() }
    #expect(await codeOf { try await client.refresh() } == .sessionRejected)
    #expect(client.currentState == .recoveryRequired(identity))

    let result = try await client.recoverSession(
      .password(username: "ada", password: "pw", totpCode: nil))
    #expect(result == .completed(.ok))
    #expect(client.currentState == .signedOut)
    let other = try peer.makeClient(store: InMemoryCredentialStore())
    _ = try await other.login(server: peer.server, username: "ada", password: "pw")
    #expect(try await peer.devices(other).count == 1)
  }

  @Test func qrRecoveryWithCandidateSelectionDeletesTheChosenSession() async throws {
    let peer = try SimulatorPeer()
    let userID = try peer.simulator.createUser(username: "ada", password: "pw", role: "admin")
    let store = InMemoryCredentialStore()
    let client = try peer.makeClient(store: store)
    _ = try await client.restore()
    // A login the server still has, whose credentials this installation lost track of.
    let installationID = try await client.installationID()
    let real = try peer.makeClient(
      store: InMemoryCredentialStore(values: [
        .appPrivate: ["auth.installation-id": try JSONEncoder().encode(installationID)]
      ]))
    _ = try await real.login(server: peer.server, username: "ada", password: "pw")
    let realSession = try #require(real.currentState.identity?.mobileSessionID)
    let stale = LoginRecord(
      loginID: "stale", server: try ServerURL(peer.server), installationID: installationID,
      user: SessionUser(id: userID, username: "ada", role: .admin), accessToken: "old-access",
      accessExpiresAt: SimulatorPeer.start, refreshToken: "old-refresh",
      refreshExpiresAt: SimulatorPeer.start, revocationToken: nil, mobileSessionID: nil,
      confirmedDeletionProof: nil, proposedDeletionProof: nil, recoveryTargetID: nil,
      status: .recoveryRequired)
    try store.setValue(stale, forKey: .login, in: .appPrivate)
    let restarted = try peer.makeClient(store: store)
    #expect(try await restarted.restore() == .recoveryRequired(stale.identity))

    let first = try await restarted.recoverSession(
      .pairingQRCode(try await peer.pairingQRText(userID: userID)))
    guard case .selectionRequired(let candidates) = first else {
      Issue.record("expected a selection: \(first)")
      return
    }
    #expect(candidates.map(\.mobileSessionID) == [realSession])
    let done = try await restarted.recoverSession(selecting: realSession)
    #expect(done == .completed(.ok))
    #expect(restarted.currentState == .signedOut)
    #expect(await codeOf { _ = try await peer.devices(real) } == .sessionRejected)
  }

  @Test func aSecondAccountLogsInOnTheSameInstallation() async throws {
    let peer = try SimulatorPeer()
    try peer.simulator.createUser(username: "ada", password: "pw", role: "admin")
    try peer.simulator.createUser(username: "bob", password: "pw2", role: "member")
    let client = try peer.makeClient()
    let ada = try #require(
      try await client.login(server: peer.server, username: "ada", password: "pw").identity)
    #expect(
      await codeOf {
        _ = try await client.login(server: peer.server, username: "bob", password: "pw2")
      } == .alreadySignedIn)
    #expect(try await client.logout() == .completed)
    let bob = try #require(
      try await client.login(server: peer.server, username: "bob", password: "pw2").identity)
    #expect(bob.installationID == ada.installationID)
    #expect(bob.user.username == "bob" && bob.mobileSessionID != ada.mobileSessionID)
    #expect(try await peer.devices(client).map(\.installationID) == [ada.installationID])
  }
}

extension LoginOutcome {
  var identity: SessionIdentity? {
    if case .signedIn(let identity) = self { return identity }
    return nil
  }
}

extension AuthClient {
  /// Drops the local login without telling the server (test setup only).
  func forgetForTest() throws { try clearLogin() }
}

/// The AuthSession error code thrown by `body`, or nil when it succeeds or throws another type.
func codeOf(_ body: () async throws -> Void) async -> AuthSessionError.Code? {
  do {
    try await body()
    return nil
  } catch let error as AuthSessionError {
    return error.code
  } catch {
    return nil
  }
}
