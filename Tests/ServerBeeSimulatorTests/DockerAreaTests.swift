import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Docker (Protocol/AppRoutes.md §8): the read gate in its order with an audit row for each
/// read, the engine derived from the server, each action kind on the wire and its effect, the
/// agent's failures as 200 with success:false, the 408 of an agent that does not answer, and
/// the events' limit.
@Suite(.timeLimit(.minutes(5))) struct DockerAreaTests {
  struct World {
    let h: Harness
    let admin: String
    let member: String
    let server: String

    func get(_ resource: String, bearer: String? = nil, server: String? = nil) async
      -> Harness.Reply
    {
      await h.send(
        .get, "/api/servers/\(server ?? self.server)/docker/\(resource)", bearer: bearer ?? admin)
    }

    func act(_ container: String, _ body: String, bearer: String? = nil) async -> Harness.Reply {
      await h.send(
        .post, "/api/servers/\(server)/docker/containers/\(container)/action",
        raw: Data(body.utf8), bearer: bearer ?? admin)
    }

    func docker(_ settings: [String: Any]) async -> JSONValue? {
      await h.control(.post, "/servers/\(server)/docker", settings)
    }

    func audits(_ action: String) throws -> Int64 {
      try h.simulator.core.db.serial {
        try h.simulator.core.db.scalar(
          "SELECT COUNT(*) FROM audit_logs WHERE action = ?", [.text(action)]
        ).int ?? -1
      }
    }

    /// The ids of the server's containers, by name without the `/`.
    func containers() async throws -> [String: JSONValue] {
      let reply = await get("containers")
      var byName: [String: JSONValue] = [:]
      for container in reply.data?["containers"]?.items ?? [] {
        let name = try #require(container["name"]?.stringValue)
        byName[String(name.dropFirst())] = container
      }
      return byName
    }
  }

  func world(docker: Bool = true) async throws -> World {
    let h = try Harness { $0.dockerAgentTimeout = 0 }
    _ = await h.user("ada")
    _ = await h.user("bob", role: "member")
    let admin = try #require(await h.login("ada").1).access
    let member = try #require(await h.login("bob", installation: "INST-2").1).access
    let made = await h.control(
      .post, "/servers", ["name": "web-1", "cpu_cores": 4, "online": true])
    let world = World(
      h: h, admin: admin, member: member,
      server: try #require(made?["data"]?["id"]?.stringValue))
    if docker { _ = await world.docker(["capability": true, "feature": true]) }
    return world
  }

  @Test func theReadGateChecksServerCapabilityFeatureAndAgentInThatOrder() async throws {
    let w = try await world(docker: false)
    let unknown = await w.get("containers", server: "no-such-server")
    #expect(unknown.status == 404 && unknown.message == "Not found: Server not found")

    // Everything missing: the capability is named first (the default mask lacks 128).
    _ = await w.h.control(.post, "/servers/\(w.server)/offline")
    let capability = await w.get("containers", bearer: w.member)
    #expect(capability.status == 403 && capability.code == "FORBIDDEN")
    #expect(capability.message == "Forbidden: agent_capability_disabled")

    _ = await w.docker(["capability": true])
    let feature = await w.get("stats")
    #expect(feature.status == 403)
    #expect(feature.message == "Forbidden: Docker is not available on this server")

    let settings = await w.docker(["feature": true])
    #expect(settings?["feature"] == .bool(true) && settings?["online"] == .bool(false))
    let offline = await w.get("info")
    #expect(offline.status == 404 && offline.message == "Not found: Server offline")

    _ = await w.docker(["online": true])
    for resource in ["containers", "stats", "info", "events", "networks", "volumes"] {
      let reply = await w.get(resource, bearer: w.member)
      #expect(reply.status == 200, "\(resource): \(reply.text)")
    }
    // Every read was audited, allowed or denied: 4 refused, 6 answered.
    #expect(try w.audits("docker_view_denied") == 4)
    #expect(try w.audits("docker_view") == 6)
  }

  @Test func eventsNeedOnlyTheServerAndTheCapability() async throws {
    let w = try await world(docker: false)
    let refused = await w.get("events")
    #expect(refused.message == "Forbidden: agent_capability_disabled")
    _ = await w.docker(["capability": true, "online": false])
    let events = await w.get("events")
    #expect(events.status == 200, "\(events.text)")
    let all = try #require(events.data?["events"]?.items)
    #expect(all.count >= 8)
    let times = all.compactMap { $0["timestamp"]?.numberValue }
    #expect(times == times.sorted(by: >))
    let limited = await w.get("events?limit=3")
    #expect(limited.data?["events"]?.items?.count == 3)
    #expect(limited.data?["events"]?.items == Array(all.prefix(3)))
    let zero = await w.get("events?limit=0")
    #expect(zero.data?["events"]?.items?.isEmpty == true)
    let bad = await w.get("events?limit=-1")
    #expect(bad.status == 400)
  }

  @Test func theEngineIsDerivedFromTheServerAndTheClock() async throws {
    let w = try await world()
    let first = await w.get("containers")
    let again = await w.get("containers")
    #expect(first.body == again.body)
    let containers = try #require(first.data?["containers"]?.items)
    #expect((4...6).contains(containers.count))
    let web = try #require(containers.first)
    #expect(web["name"]?.stringValue == "/stack-web-1")
    #expect(web["state"]?.stringValue == "running")
    #expect(web["id"]?.stringValue?.count == 64)
    #expect(web["ports"]?[0]?["public_port"]?.numberValue == 8080)
    #expect(web["labels"]?["com.docker.compose.service"]?.stringValue == "web")

    let stats = await w.get("stats")
    let running = containers.filter { $0["state"]?.stringValue == "running" }
    #expect(stats.data?["stats"]?.items?.count == running.count)
    let info = await w.get("info")
    #expect(info.data?["info"]?["containers_running"]?.numberValue == Double(running.count))
    #expect(
      info.data?["info"]?["containers_stopped"]?.numberValue
        == Double(containers.count - running.count))
    let networks = await w.get("networks")
    let stack = networks.data?["networks"]?.items?.first {
      $0["name"]?.stringValue == "stack_default"
    }
    #expect(stack?["containers"]?[web["id"]?.stringValue ?? ""]?.stringValue == "stack-web-1")
    let volumes = await w.get("volumes")
    #expect(volumes.data?["volumes"]?.items?.last?["created_at"] == .null)
  }

  @Test func eachActionKindIsReadFromItsTaggedFormAndChangesTheContainer() async throws {
    let w = try await world()
    let web = try #require(try await w.containers()["stack-web-1"]?["id"]?.stringValue)

    let stop = await w.act(web, #"{"action":{"Stop":{"timeout":null}}}"#)
    #expect(stop.status == 200 && stop.text == #"{"data":{"success":true,"error":null}}"#)
    #expect(try await w.containers()["stack-web-1"]?["state"]?.stringValue == "exited")
    #expect(
      try await w.containers()["stack-web-1"]?["status"]?.stringValue?.hasPrefix("Exited (0)")
        == true)

    let start = await w.act("stack-web-1", #"{"action":"Start"}"#)
    #expect(start.data?["success"] == .bool(true), "\(start.text)")
    #expect(try await w.containers()["stack-web-1"]?["state"]?.stringValue == "running")

    let restart = await w.act(String(web.prefix(12)), #"{"action":{"Restart":{"timeout":5}}}"#)
    #expect(restart.data?["success"] == .bool(true), "\(restart.text)")

    // A running container is not removed without force: the agent's failure is a 200.
    let kept = await w.act(web, #"{"action":{"Remove":{"force":false}}}"#)
    #expect(kept.status == 200)
    #expect(kept.data?["success"] == .bool(false))
    #expect(kept.data?["error"]?.stringValue?.contains("container is running") == true)
    let removed = await w.act(web, #"{"action":{"Remove":{"force":true}}}"#)
    #expect(removed.data?["success"] == .bool(true))
    #expect(try await w.containers()["stack-web-1"] == nil)

    let events = await w.get("events?limit=4")
    let actions = events.data?["events"]?.items?.compactMap { $0["action"]?.stringValue }
    #expect(actions == ["destroy", "die", "kill", "restart"])
    #expect(try w.audits("docker_container_action") == 5)
  }

  @Test func aBadActionIsSerdesPlainTextRefusal() async throws {
    let w = try await world()
    let unknown = await w.act("x", #"{"action":"Pause"}"#)
    #expect(unknown.status == 422)
    #expect(
      unknown.text
        == "Failed to deserialize the JSON body into the target type: action: unknown variant "
        + "`Pause`, expected one of `Start`, `Stop`, `Restart`, `Remove`")
    let lower = await w.act("x", #"{"action":"start"}"#)
    #expect(lower.status == 422)
    let missing = await w.act("x", #"{}"#)
    #expect(missing.text.hasSuffix("missing field `action`"))
    let force = await w.act("x", #"{"action":{"Remove":{}}}"#)
    #expect(force.status == 422 && force.text.hasSuffix("missing field `force`"))
    // Nothing reached the agent: no action was audited.
    #expect(try w.audits("docker_container_action") == 0)
  }

  @Test func theAgentsFailuresAreAnsweredWith200AndSuccessFalse() async throws {
    let w = try await world()
    let unknown = await w.act("nope", #"{"action":"Start"}"#)
    #expect(unknown.text == #"{"data":{"success":false,"error":"No such container: nope"}}"#)
    _ = await w.docker(["failure": "permission denied"])
    let failed = await w.act("stack-web-1", #"{"action":{"Stop":{"timeout":1}}}"#)
    #expect(failed.text == #"{"data":{"success":false,"error":"permission denied"}}"#)
    #expect(try await w.containers()["stack-web-1"]?["state"]?.stringValue == "running")
    let cleared = await w.docker(["failure": NSNull()])
    #expect(cleared?["failure"] == .null)
    let stopped = await w.act("stack-web-1", #"{"action":{"Stop":{"timeout":1}}}"#)
    #expect(stopped.data?["success"] == .bool(true))
  }

  @Test func anAgentThatDoesNotAnswerGives408WhereTheAgentIsAsked() async throws {
    let w = try await world()
    let settings = await w.docker(["responsive": false])
    #expect(settings?["responsive"] == .bool(false))
    for resource in ["networks", "volumes"] {
      let reply = await w.get(resource)
      #expect(reply.status == 408, "\(resource): \(reply.text)")
      #expect(reply.code == "REQUEST_TIMEOUT")
      #expect(reply.message == "Request timeout: Agent did not respond within 30s")
    }
    let action = await w.act("stack-web-1", #"{"action":"Start"}"#)
    #expect(action.status == 408)
    // The action was audited before the agent was asked.
    #expect(try w.audits("docker_container_action") == 1)
    // The cached reads still answer.
    for resource in ["containers", "stats", "info"] {
      #expect(await w.get(resource).status == 200, "\(resource)")
    }
    _ = await w.docker(["responsive": true])
    #expect(await w.get("networks").status == 200)
  }

  @Test func onlyAnAdminActsOnAContainer() async throws {
    let w = try await world()
    let member = await w.act("stack-web-1", #"{"action":"Start"}"#, bearer: w.member)
    #expect(member.status == 403 && member.body.isEmpty)
    let none = await w.h.send(
      .post, "/api/servers/\(w.server)/docker/containers/x/action",
      raw: Data(#"{"action":"Start"}"#.utf8))
    #expect(none.status == 401 && none.body.isEmpty)
  }

  @Test func thePlanDependsOnlyOnTheServer() {
    let a = DockerPlan(serverID: "s-1", serverCreated: 1_800_000_000 * SimulatorCore.second)
    let b = DockerPlan(serverID: "s-1", serverCreated: 1_800_000_000 * SimulatorCore.second)
    #expect(a.containers.map(\.id) == b.containers.map(\.id))
    let other = DockerPlan(serverID: "s-2", serverCreated: 1_800_000_000 * SimulatorCore.second)
    #expect(a.containers.map(\.id) != other.containers.map(\.id))
    let web = a.containers[0]
    #expect(a.logLine(web, 7) == b.logLine(web, 7))
    #expect(a.lastLine(web, at: a.logTime(web, 7)) == 7)
    #expect(a.lastLine(web, at: a.logTime(web, 8) - 1) == 7)
  }
}

extension JSONValue {
  /// The elements of an array, else `nil`.
  fileprivate var items: [JSONValue]? {
    guard case .array(let elements) = self else { return nil }
    return elements
  }
}
