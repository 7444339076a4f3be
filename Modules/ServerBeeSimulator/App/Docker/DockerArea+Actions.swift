import Foundation
import ServerBeeModels
import ServerBeeTransport

// The container action (Protocol/AppRoutes.md §8.3) and the control route (§8.6).
//
// [inferred], as Protocol/AppRoutes.md §8.3 records:
// - the body is read before the gate (axum's extractor runs before the handler): a bad one is
//   serde's plain-text 422;
// - the agent finds a container by its full id, an id prefix of 12 or more digits, or its name
//   (with or without the leading `/`); another is `No such container: <cid>` (HTTP 200,
//   success:false);
// - starting a running container and stopping a stopped one succeed without a change, as
//   Docker's 304 does; removing a running container without `force` fails as Docker words it;
// - each change stores Docker's events for it (`die`, `stop`, `start`, `restart`, `destroy`).

extension DockerArea {
  /// The variants of the action's externally tagged enum, in the server's order.
  static let actionNames = ["Start", "Stop", "Restart", "Remove"]

  /// An action read from the body.
  enum Action {
    case start
    case stop(timeout: Int64?)
    case restart(timeout: Int64?)
    case remove(force: Bool)

    var name: String {
      switch self {
      case .start: "start"
      case .stop: "stop"
      case .restart: "restart"
      case .remove: "remove"
      }
    }
  }

  /// `POST /api/servers/{id}/docker/containers/{cid}/action {action}` (admin) →
  /// `{success, error}`.
  func containerAction(_ context: RequestContext, _ caller: Caller?) throws -> RouteAnswer {
    let action = try Self.action(try context.jsonBody().value)
    let containerID = context.parameter(1)
    return try gated(context, caller, "container_action") { server in
      if let caller {
        try core.audit(
          caller, "docker_container_action",
          detail: try Self.detail([
            ("server_id", server.id), ("container_id", containerID), ("action", action.name),
          ]), context)
      }
      let settings = try agent(server.id)
      if settings.unresponsive { return try fromAgent(server) { Self.result(nil) } }
      if let failure = settings.failure { return .response(Self.result(failure)) }
      return .response(try perform(action, on: containerID, server))
    }
  }

  /// `{success, error}`: success without an error, or the agent's failure.
  static func result(_ failure: String?) -> HTTPResponse {
    Reply.data(
      JSONValue.object([
        ("success", .bool(failure == nil)), ("error", failure.map { .string($0) } ?? .null),
      ]))
  }

  /// Does `action` on the container `containerID` names, as the agent would.
  func perform(_ action: Action, on containerID: String, _ server: ServerRow) throws
    -> HTTPResponse
  {
    let engine = try engine(server)
    guard let container = engine.container(named: containerID)
    else { return Self.result("No such container: \(containerID)") }
    let at = nowSeconds
    switch action {
    case .start:
      guard !container.running else { return Self.result(nil) }
      try setState(container, "running", server)
      try store(container, ["start"], at: at, server)
    case .stop:
      guard container.running else { return Self.result(nil) }
      try setState(container, "exited", server)
      try store(container, ["die", "stop"], at: at, server)
    case .restart:
      try setState(container, "running", server)
      try store(
        container, container.running ? ["die", "stop", "start", "restart"] : ["start", "restart"],
        at: at, server)
    case .remove(let force):
      if container.running && !force {
        return Self.result(
          "cannot remove container \"\(container.planned.name)\": container is running: stop "
            + "the container before removing or force remove")
      }
      try setState(container, "removed", server)
      try store(
        container, container.running ? ["kill", "die", "destroy"] : ["destroy"], at: at, server)
    }
    return Self.result(nil)
  }

  private func setState(_ container: Standing, _ state: String, _ server: ServerRow) throws {
    try db.execute(
      """
      INSERT INTO docker_container_states (server_id, container_id, state, changed_at)
      VALUES (?, ?, ?, ?) ON CONFLICT (server_id, container_id)
      DO UPDATE SET state = excluded.state, changed_at = excluded.changed_at
      """, [.text(server.id), .text(container.planned.id), .text(state), .int(now)])
  }

  private func store(_ container: Standing, _ actions: [String], at: Int64, _ server: ServerRow)
    throws
  {
    let name = String(container.planned.name.dropFirst())
    for action in actions {
      var attributes: [(String, String)] = [
        ("image", container.planned.template.image), ("name", name),
      ]
      if action == "die" { attributes.append(("exitCode", "0")) }
      try db.execute(
        """
        INSERT INTO docker_events (server_id, timestamp, event_type, action, actor_id, actor_name,
          attributes) VALUES (?, ?, 'container', ?, ?, ?, ?)
        """,
        [
          .text(server.id), .int(at), .text(action), .text(container.planned.id), .text(name),
          .text(try Self.detail(attributes)),
        ])
    }
  }

  /// The action of the body `{"action": …}`, as serde reads the externally tagged enum.
  /// - Throws: ``APIError`` (plain-text 422) for a missing or malformed action.
  static func action(_ body: JSONValue) throws -> Action {
    func refuse(_ reason: String) -> APIError {
      .plain(422, "Failed to deserialize the JSON body into the target type: action: \(reason)")
    }
    let expected = actionNames.map { "`\($0)`" }.joined(separator: ", ")
    guard let value = body["action"] else {
      throw APIError.plain(
        422, "Failed to deserialize the JSON body into the target type: missing field `action`")
    }
    let tag: String
    let fields: JSONValue?
    switch value {
    case .string(let name):
      (tag, fields) = (name, nil)
    case .object(let members) where members.count == 1:
      (tag, fields) = (members[0].key, members[0].value)
    default:
      throw refuse("expected enum DockerAction")
    }
    guard actionNames.contains(tag) else {
      throw refuse("unknown variant `\(tag)`, expected one of \(expected)")
    }
    func timeout() throws -> Int64? {
      guard let fields, case .object = fields else {
        throw refuse("invalid type: unit variant, expected struct variant")
      }
      switch fields["timeout"] {
      case nil, .null?: return nil
      case .number(let number)? where number >= 0 && number == number.rounded():
        return Int64(number)
      default: throw refuse("timeout: invalid type, expected u32")
      }
    }
    switch tag {
    case "Start":
      guard fields == nil else { throw refuse("invalid type: map, expected unit variant") }
      return .start
    case "Stop": return .stop(timeout: try timeout())
    case "Restart": return .restart(timeout: try timeout())
    default:
      guard let fields, case .object = fields, case .bool(let force)? = fields["force"] else {
        throw refuse("missing field `force`")
      }
      return .remove(force: force)
    }
  }

  // MARK: Control

  /// `POST /__simulator/servers/{id}/docker {capability?, feature?, online?, responsive?,
  /// failure?}` → the server's Docker settings after the change. `capability` sets bit 128 of
  /// the server's mask, `feature` adds or removes `docker` from its features, `online` connects
  /// or disconnects its agent (as `/__simulator/servers/{id}/online|offline`), `responsive`
  /// false makes its agent never answer (the 408), `failure` (a string, or null to clear)
  /// makes every action fail on the agent with that text. 404 for an unknown server.
  func controlDocker(_ context: RequestContext) throws -> HTTPResponse {
    let id = context.parameter(0)
    guard try core.server(id: id) != nil else { throw APIError.notFound("Server not found") }
    let body = try context.controlBody()
    try Self.setDocker(
      core, serverID: id, capability: try body.bool("capability"),
      feature: try body.bool("feature"))
    if let online = try body.bool("online") { try core.setPresence(serverID: id, online: online) }
    var settings = try agent(id)
    if let responsive = try body.bool("responsive") { settings.unresponsive = !responsive }
    if body.value["failure"] != nil { settings.failure = try body.optionalString("failure") }
    try db.execute(
      """
      INSERT INTO docker_agents (server_id, unresponsive, failure) VALUES (?, ?, ?)
      ON CONFLICT (server_id) DO UPDATE SET unresponsive = excluded.unresponsive,
        failure = excluded.failure
      """, [.text(id), settings.unresponsive.sql, settings.failure.sql])
    guard let row = try core.server(id: id) else { throw APIError.notFound("Server not found") }
    return Reply.object([
      ("server_id", .string(id)), ("capability", .bool(row.capabilities & Self.capability != 0)),
      ("feature", .bool(row.features.contains("docker"))), ("online", .bool(row.online)),
      ("responsive", .bool(!settings.unresponsive)),
      ("failure", settings.failure.map { .string($0) } ?? .null),
    ])
  }

  /// Sets or clears bit 128 of a server's capabilities and the `docker` feature; `nil` leaves
  /// each as it is.
  static func setDocker(
    _ core: SimulatorCore, serverID: String, capability: Bool?, feature: Bool?
  ) throws {
    guard let server = try core.server(id: serverID) else { return }
    if let capability {
      let mask =
        capability ? server.capabilities | Self.capability : server.capabilities & ~Self.capability
      try core.db.execute(
        "UPDATE servers SET capabilities = ?, updated_at = ? WHERE id = ?",
        [.int(mask), .int(core.now), .text(serverID)])
    }
    if let feature {
      var features = server.features.filter { $0 != "docker" }
      if feature { features.append("docker") }
      try core.db.execute(
        "UPDATE servers SET features_json = ?, updated_at = ? WHERE id = ?",
        [
          .text(String(decoding: try WireJSON.encode(features), as: UTF8.self)),
          .int(core.now), .text(serverID),
        ])
    }
  }
}
