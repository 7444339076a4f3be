import Foundation
import ServerBeeModels
import ServerBeeTransport

// The seven Docker routes (Protocol/AppRoutes.md §8.1–§8.3). A refusal of the gate is audited,
// so it is answered rather than thrown (the audit row stays either way: no transaction).
//
// [inferred], as Protocol/AppRoutes.md §8 records:
// - the capability is checked on the configured mask (`capabilities`), which is also the
//   effective one while the agent is online;
// - the action goes through the same gate, and its refusals are audited `docker_view_denied`
//   like the reads';
// - the simulator's agent reports `info` with its containers, so `info` always comes from the
//   cache: only `networks`, `volumes` and the action ask the agent (and may time out);
// - the audit detail is `{"server_id", "resource"}` (the action's: `{"server_id",
//   "container_id", "action"}`).

extension DockerArea {
  /// The Docker capability's bit (Protocol/Servers.md §1.2).
  static let capability: Int64 = 128

  /// What the gate checks beyond the server and the capability.
  enum Gate {
    /// Every check (#58–#60, #62–#64).
    case full
    /// Only the server and the capability (#61, events).
    case serverAndCapability
  }

  /// The read gate of Protocol/AppRoutes.md §8.1, in order, auditing the outcome: the server
  /// row, or the refusal to answer.
  func gate(
    _ context: RequestContext, _ caller: Caller?, _ resource: String, _ gate: Gate = .full
  ) throws -> Result<ServerRow, APIError> {
    let serverID = context.parameter(0)
    let refusal: APIError?
    let server = try core.server(id: serverID)
    if let server {
      if server.capabilities & Self.capability == 0 {
        refusal = .forbidden("agent_capability_disabled")
      } else if gate == .full, !server.features.contains("docker") {
        refusal = .forbidden("Docker is not available on this server")
      } else if gate == .full, !server.online {
        refusal = .notFound("Server offline")
      } else {
        refusal = nil
      }
    } else {
      refusal = .notFound("Server not found")
    }
    if let caller {
      try core.audit(
        caller, refusal == nil ? "docker_view" : "docker_view_denied",
        detail: try Self.detail([("server_id", serverID), ("resource", resource)]), context)
    }
    if let refusal { return .failure(refusal) }
    guard let server else { return .failure(.notFound("Server not found")) }
    return .success(server)
  }

  /// A JSON object of strings, for an audit detail.
  static func detail(_ members: [(String, String)]) throws -> String {
    String(
      decoding: try WireJSON.encode(JSONValue.object(members.map { ($0.0, .string($0.1)) })),
      as: UTF8.self)
  }

  /// Runs `body` on the gated server; a refusal is answered as the error.
  func gated(
    _ context: RequestContext, _ caller: Caller?, _ resource: String, _ gate: Gate = .full,
    _ body: (ServerRow) throws -> RouteAnswer
  ) throws -> RouteAnswer {
    switch try self.gate(context, caller, resource, gate) {
    case .failure(let refusal): return .response(refusal.response)
    case .success(let server): return try body(server)
    }
  }

  /// An answer from the agent: at once, or the 408 after ``Simulator/Configuration/
  /// dockerAgentTimeout`` when the agent does not answer (the wait runs after the database
  /// lock is released).
  func fromAgent(_ server: ServerRow, _ answer: @escaping () -> HTTPResponse) throws
    -> RouteAnswer
  {
    guard try agent(server.id).unresponsive else { return .response(answer()) }
    let wait = settings.dockerAgentTimeout
    return .finish {
      if wait > 0 { Thread.sleep(forTimeInterval: wait) }
      return Reply.error(
        408, .requestTimeout, "Request timeout: Agent did not respond within 30s")
    }
  }

  // MARK: Reads

  /// `GET /api/servers/{id}/docker/containers` (member).
  func containers(_ context: RequestContext, _ caller: Caller?) throws -> RouteAnswer {
    try gated(context, caller, "containers") { server in
      let list = try engine(server).containers.map(container)
      return .response(Reply.data(JSONValue.object([("containers", .array(list))])))
    }
  }

  /// `GET /api/servers/{id}/docker/stats` (member): running containers only.
  func stats(_ context: RequestContext, _ caller: Caller?) throws -> RouteAnswer {
    try gated(context, caller, "stats") { server in
      let engine = try engine(server)
      let stats = engine.containers.filter(\.running).map {
        JSONValue.object(
          engine.plan.stats(
            $0.planned, running: true, memoryLimit: server.memTotal ?? 0, now: now))
      }
      return .response(Reply.data(JSONValue.object([("stats", .array(stats))])))
    }
  }

  /// `GET /api/servers/{id}/docker/info` (member).
  func info(_ context: RequestContext, _ caller: Caller?) throws -> RouteAnswer {
    try gated(context, caller, "info") { server in
      let containers = try engine(server).containers
      let running = containers.filter(\.running).count
      let images = Set(containers.map(\.planned.template.image)).count + 2
      let info: JSONValue = .object([
        ("docker_version", .string("27.3.1")), ("api_version", .string("1.47")),
        ("os", .string(server.os ?? "linux")), ("arch", .string(server.cpuArch ?? "x86_64")),
        ("containers_running", .integer(running)), ("containers_paused", .integer(0)),
        ("containers_stopped", .integer(containers.count - running)),
        ("images", .integer(images)), ("memory_total", .integer(server.memTotal ?? 0)),
      ])
      return .response(Reply.data(JSONValue.object([("info", info)])))
    }
  }

  /// `GET /api/servers/{id}/docker/events?limit=` (member): newest first, 100 by default.
  func events(_ context: RequestContext, _ caller: Caller?) throws -> RouteAnswer {
    let limit = try context.queryCount("limit", default: 100)
    return try gated(context, caller, "events", .serverAndCapability) { server in
      let events = try self.events(of: server).prefix(Int(clamping: limit))
      return .response(Reply.data(JSONValue.object([("events", .array(Array(events)))])))
    }
  }

  /// `GET /api/servers/{id}/docker/networks` (member): always asks the agent.
  func networks(_ context: RequestContext, _ caller: Caller?) throws -> RouteAnswer {
    try gated(context, caller, "networks") { server in
      let containers = try engine(server).containers
      let attached = containers.filter(\.running).map {
        ($0.planned.id, JSONValue.string(String($0.planned.name.dropFirst())))
      }
      func network(_ name: String, _ driver: String, _ members: [(String, JSONValue)])
        -> JSONValue
      {
        .object([
          ("id", .string(DockerPlan.hexID(server.id, "network-" + name))),
          ("name", .string(name)), ("driver", .string(driver)), ("scope", .string("local")),
          ("containers", .object(members)),
        ])
      }
      let networks: [JSONValue] = [
        network("bridge", "bridge", []), network("host", "host", []),
        network("none", "null", []),
        network(DockerPlan.project + "_default", "bridge", attached),
      ]
      return try fromAgent(server) {
        Reply.data(JSONValue.object([("networks", .array(networks))]))
      }
    }
  }

  /// `GET /api/servers/{id}/docker/volumes` (member): always asks the agent.
  func volumes(_ context: RequestContext, _ caller: Caller?) throws -> RouteAnswer {
    try gated(context, caller, "volumes") { server in
      let containers = try engine(server).containers
      var volumes: [JSONValue] = containers.compactMap { container in
        guard let volume = container.planned.template.volume else { return nil }
        let created = RFC3339Timestamp(
          secondsSince1970: container.planned.created / Self.second)
        return .object([
          ("name", .string(DockerPlan.project + "_" + volume)), ("driver", .string("local")),
          ("mountpoint", .string("/var/lib/docker/volumes/\(DockerPlan.project)_\(volume)/_data")),
          ("created_at", .string(created.description)),
          ("labels", .object([("com.docker.compose.project", .string(DockerPlan.project))])),
        ])
      }
      // An anonymous volume, whose creation the agent did not report.
      let anonymous = DockerPlan.hexID(server.id, "anonymous-volume")
      volumes.append(
        .object([
          ("name", .string(anonymous)), ("driver", .string("local")),
          ("mountpoint", .string("/var/lib/docker/volumes/\(anonymous)/_data")),
          ("created_at", .null), ("labels", .object([])),
        ]))
      return try fromAgent(server) {
        Reply.data(JSONValue.object([("volumes", .array(volumes))]))
      }
    }
  }

  // MARK: The engine as it stands

  /// One container as it stands: the plan's, with what the actions changed.
  struct Standing {
    var planned: DockerPlan.Container
    var state: String
    /// Since when it is in `state`, nanoseconds.
    var since: Int64
    var exitCode: Int

    var running: Bool { state == "running" }
  }

  /// A server's engine as it stands now: the plan, and its containers with their states.
  struct Engine {
    var plan: DockerPlan
    var containers: [Standing]

    /// The container `text` names, as the agent finds one: its full id, an id prefix of 12 or
    /// more digits, or its name with or without the leading `/` (Protocol/AppRoutes.md §8.3).
    func container(named text: String) -> Standing? {
      containers.first { DockerContainer.reference(text, names: $0.planned.id, $0.planned.name) }
    }
  }

  /// The engine of `server`: the plan's containers, minus the removed ones, with their states.
  func engine(_ server: ServerRow) throws -> Engine {
    let plan = DockerPlan(serverID: server.id, serverCreated: server.createdAt)
    var changed: [String: (state: String, at: Int64)] = [:]
    for row in try db.query(
      "SELECT container_id, state, changed_at FROM docker_container_states WHERE server_id = ?",
      [.text(server.id)])
    {
      changed[row["container_id"].text ?? ""] = (
        row["state"].text ?? "exited", row["changed_at"].int ?? 0
      )
    }
    let containers = plan.containers.compactMap { container -> Standing? in
      if let change = changed[container.id] {
        guard change.state != "removed" else { return nil }
        return Standing(planned: container, state: change.state, since: change.at, exitCode: 0)
      }
      // A container that is not running stopped an hour after it was created, exit code 1.
      return container.template.running
        ? Standing(
          planned: container, state: "running", since: container.created + Self.second,
          exitCode: 0)
        : Standing(
          planned: container, state: "exited", since: container.created + 3600 * Self.second,
          exitCode: 1)
    }
    return Engine(plan: plan, containers: containers)
  }

  /// A container on the wire, its status worded at the clock's time.
  func container(_ container: Standing) -> JSONValue {
    let planned = container.planned
    let ports: [JSONValue] = planned.template.ports.map { port in
      .object([
        ("private_port", .integer(port.inside)), ("public_port", .integer(port.outside)),
        ("port_type", .string("tcp")), ("ip", port.outside == nil ? .null : .string("0.0.0.0")),
      ])
    }
    return .object([
      ("id", .string(planned.id)), ("name", .string(planned.name)),
      ("image", .string(planned.template.image)), ("state", .string(container.state)),
      ("status", .string(container.statusText(now: now))),
      ("created", .integer(planned.created / Self.second)),
      ("ports", .array(ports)),
      (
        "labels",
        .object([
          ("com.docker.compose.project", .string(DockerPlan.project)),
          ("com.docker.compose.service", .string(planned.template.service)),
        ])
      ),
    ])
  }

  // MARK: Events

  /// Every event of `server`, newest first: the plan's (each container created and started,
  /// the exited ones' `die`) and those the actions stored.
  func events(of server: ServerRow) throws -> [JSONValue] {
    let plan = DockerPlan(serverID: server.id, serverCreated: server.createdAt)
    var events: [(at: Int64, order: Int64, value: JSONValue)] = []
    func event(
      _ at: Int64, _ order: Int64, _ action: String, _ container: DockerPlan.Container,
      _ extra: [(String, String)] = []
    ) {
      let name = String(container.name.dropFirst())
      let attributes = [("image", container.template.image), ("name", name)] + extra
      events.append(
        (
          at, order,
          .object([
            ("timestamp", .integer(at)), ("event_type", .string("container")),
            ("action", .string(action)), ("actor_id", .string(container.id)),
            ("actor_name", .string(name)),
            ("attributes", .object(attributes.map { ($0.0, .string($0.1)) })),
          ])
        ))
    }
    for container in plan.containers {
      let created = container.created / Self.second
      event(created, 0, "create", container)
      event(created + 1, 1, "start", container)
      if !container.template.running {
        event(created + 3600, 2, "die", container, [("exitCode", "1")])
      }
    }
    for row in try db.query(
      "SELECT * FROM docker_events WHERE server_id = ? ORDER BY id", [.text(server.id)])
    {
      let attributes =
        (try? WireJSON.decode(JSONValue.self, from: Data((row["attributes"].text ?? "{}").utf8)))
        ?? .object([])
      events.append(
        (
          row["timestamp"].int ?? 0, 1_000 + (row["id"].int ?? 0),
          .object([
            ("timestamp", .integer(row["timestamp"].int)),
            ("event_type", .string(row["event_type"].text ?? "container")),
            ("action", .string(row["action"].text ?? "")),
            ("actor_id", .string(row["actor_id"].text ?? "")),
            ("actor_name", .text(row["actor_name"].text)), ("attributes", attributes),
          ])
        ))
    }
    return events.sorted { ($0.at, $0.order) > ($1.at, $1.order) }.map(\.value)
  }

  // MARK: Agent settings

  /// A server's agent settings from the control API.
  struct AgentSettings {
    var unresponsive = false
    var failure: String?
  }

  func agent(_ serverID: String) throws -> AgentSettings {
    guard
      let row = try db.query(
        "SELECT unresponsive, failure FROM docker_agents WHERE server_id = ?", [.text(serverID)]
      ).first
    else { return AgentSettings() }
    return AgentSettings(unresponsive: row["unresponsive"].bool, failure: row["failure"].text)
  }
}

extension DockerArea.Standing {
  /// Docker's words for the state at `now` (nanoseconds): `Up 3 hours`, `Exited (0) 5 minutes
  /// ago`.
  func statusText(now: Int64) -> String {
    let seconds = max(0, (now - since) / SimulatorCore.second)
    let span = Self.span(seconds)
    return running ? "Up \(span)" : "Exited (\(exitCode)) \(span) ago"
  }

  /// `Less than a second`, `5 seconds`, `3 minutes`, `2 hours`, `4 days`, as Docker words it.
  static func span(_ seconds: Int64) -> String {
    switch seconds {
    case ..<1: "Less than a second"
    case ..<60: seconds == 1 ? "1 second" : "\(seconds) seconds"
    case ..<3600: seconds / 60 == 1 ? "About a minute" : "\(seconds / 60) minutes"
    case ..<86_400: seconds / 3600 == 1 ? "About an hour" : "\(seconds / 3600) hours"
    default: seconds / 86_400 == 1 ? "1 day" : "\(seconds / 86_400) days"
    }
  }
}
