import Foundation
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

/// The Docker calls (Protocol/AppRoutes.md §8): what each sends, and each refusal of the read
/// gate as its own code with a sentence.
@Suite(.timeLimit(.minutes(5))) struct DockerClientTests {
  let sut: SUT
  init() throws { sut = try SUT() }
  var api: ServerBeeAPIClient { sut.api }
  var http: StubHTTPTransport { sut.http }

  static func refusal(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
    HTTPResponse(
      status: status,
      body: Data(#"{"error":{"code":"\#(code)","message":"\#(message)"}}"#.utf8))
  }

  @Test func theReadsUnwrapTheirPayloads() async throws {
    await http.expect(
      .get, "/api/servers/s1/docker/containers",
      reply: try Samples.reply(
        DockerContainersResponse(containers: [
          DockerContainer(
            id: "c1", name: "/web", image: "nginx", state: "running", status: "Up", created: 1)
        ])))
    await http.expect(
      .get, "/api/servers/s1/docker/volumes",
      reply: try Samples.reply(DockerVolumesResponse(volumes: [])))
    let containers = try await api.dockerContainers(serverID: "s1")
    #expect(containers.map(\.displayName) == ["web"])
    #expect(try await api.dockerVolumes(serverID: "s1").isEmpty)
  }

  @Test func eventsSendTheirLimitOnlyWhenGiven() async throws {
    let queries = Queries()
    for _ in 0..<2 {
      await http.expect(.get, "/api/servers/s1/docker/events") { request in
        await queries.add(request.url.query)
        return try Samples.reply(DockerEventsResponse(events: []))
      }
    }
    _ = try await api.dockerEvents(serverID: "s1", limit: 20)
    _ = try await api.dockerEvents(serverID: "s1")
    #expect(await queries.all == ["limit=20", nil])
    let error = await #expect(throws: ServerBeeAPIError.self) {
      _ = try await api.dockerEvents(serverID: "s1", limit: -1)
    }
    #expect(error?.code == .invalidArgument)
  }

  @Test func anActionSendsItsTaggedBodyAndReturnsTheAgentsFailure() async throws {
    let bodies = Queries()
    await http.expect(.post, "/api/servers/s1/docker/containers/c1/action") { request in
      await bodies.add(String(decoding: request.body, as: UTF8.self))
      return try Samples.reply(DockerActionResult(success: false, error: "no such container"))
    }
    let result = try await api.dockerContainerAction(
      serverID: "s1", containerID: "c1", .stop(timeout: nil))
    #expect(result == DockerActionResult(success: false, error: "no such container"))
    #expect(await bodies.all == [#"{"action":{"Stop":{"timeout":null}}}"#])
    let empty = await #expect(throws: ServerBeeAPIError.self) {
      _ = try await api.dockerContainerAction(serverID: "s1", containerID: "", .start)
    }
    #expect(empty?.code == .invalidArgument)
  }

  @Test(arguments: [
    (
      403, "FORBIDDEN", "Forbidden: agent_capability_disabled",
      ServerBeeAPIError.Code.dockerCapabilityDisabled,
      "Docker is turned off for this server: its agent does not grant the docker capability"
    ),
    (
      403, "FORBIDDEN", "Forbidden: Docker is not available on this server", .dockerUnavailable,
      "Docker is not available on this server: its agent does not report it"
    ),
    (
      404, "NOT_FOUND", "Not found: Server offline", .agentOffline,
      "the server's agent is offline, so its Docker engine cannot be reached"
    ),
    (
      408, "REQUEST_TIMEOUT", "Request timeout: Agent did not respond within 30s",
      .agentDidNotRespond, "the server's agent did not answer within 30 seconds"
    ),
    (404, "NOT_FOUND", "Not found: Server not found", .notFound, "there is no such server"),
  ])
  func eachGateRefusalIsItsOwnCodeAndSentence(
    _ status: Int, _ code: String, _ message: String, _ expected: ServerBeeAPIError.Code,
    _ sentence: String
  ) async throws {
    await http.expect(
      .get, "/api/servers/s1/docker/networks", reply: Self.refusal(status, code, message))
    let error = await #expect(throws: ServerBeeAPIError.self) {
      _ = try await api.dockerNetworks(serverID: "s1")
    }
    #expect(error?.code == expected)
    #expect(error?.message == sentence)
    #expect(error?.httpStatus == status)
  }

  @Test func aMemberIsRefusedTheActionWithTheEmpty403() async throws {
    await http.expect(
      .post, "/api/servers/s1/docker/containers/c1/action", reply: HTTPResponse(status: 403))
    let error = await #expect(throws: ServerBeeAPIError.self) {
      _ = try await api.dockerContainerAction(serverID: "s1", containerID: "c1", .start)
    }
    #expect(error?.code == .forbidden)
  }
}

/// What the stub saw.
private actor Queries {
  var all: [String?] = []
  func add(_ value: String?) { all.append(value) }
}
