import ServerBeeKit
import ServerBeeTestSupport
import Testing

/// The "test your code with our fakes" example of the Getting started article, as a test, so
/// the article's code keeps compiling and working with only public API.
@Suite(.timeLimit(.minutes(5))) struct IntegratorFakesTests {
  @Test func theGettingStartedFakesExampleWorks() async throws {
    let stub = StubHTTPTransport()
    await stub.expect(.get, "/api/servers", reply: .json(200, #"{"data":[]}"#))
    let session = FakeSessionContext()
    session.signIn(try FakeSessionContext.identity(user: "ada"))
    let api = ServerBeeAPIClient(
      server: try ServerURL("https://monitor.example.com"),
      transport: AuthorizedHTTPTransport(wrapping: stub, client: session))
    #expect(try await api.servers().isEmpty)
    await stub.verifyAllConsumed()
  }

  @Test func aSwitchedAccountIsSeenByIdentityChanges() async throws {
    let session = FakeSessionContext()
    var changes = session.identityChanges().makeAsyncIterator()
    #expect(await changes.next() == .some(nil))
    let ada = try FakeSessionContext.identity(user: "ada")
    let bob = try FakeSessionContext.identity(user: "bob", loginID: "login-2")
    session.signIn(ada)
    session.signIn(bob)
    #expect(await changes.next() == .some(ada))
    #expect(await changes.next() == .some(bob))
    #expect(ada.scope != bob.scope)
    _ = try await session.confirmDeletionProof()
    #expect(session.confirmationCount == 1)
  }
}
