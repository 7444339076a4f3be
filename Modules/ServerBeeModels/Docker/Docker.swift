/// One published or exposed port of a container (Protocol/AppRoutes.md §8.2).
public struct DockerPort: Codable, Hashable, Sendable {
  /// The port inside the container.
  public var privatePort: Int
  /// The port on the host, when published.
  public var publicPort: Int?
  /// `tcp`, `udp` or `sctp`.
  public var portType: String
  /// The host address it is bound to, when published.
  public var ip: String?

  /// Creates a port.
  /// - Parameters:
  ///   - privatePort: Inside the container.
  ///   - publicPort: On the host.
  ///   - portType: The protocol.
  ///   - ip: The host address.
  public init(privatePort: Int, publicPort: Int? = nil, portType: String = "tcp", ip: String? = nil)
  {
    self.privatePort = privatePort
    self.publicPort = publicPort
    self.portType = portType
    self.ip = ip
  }

  private enum CodingKeys: String, CodingKey {
    case privatePort = "private_port"
    case publicPort = "public_port"
    case portType = "port_type"
    case ip
  }

  /// Writes every member, `null` included, in the server's key order.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(privatePort, forKey: .privatePort)
    try c.encode(publicPort, forKey: .publicPort)
    try c.encode(portType, forKey: .portType)
    try c.encode(ip, forKey: .ip)
  }
}

/// One container of `GET /api/servers/{id}/docker/containers` (Protocol/AppRoutes.md §8.2).
///
/// ```swift
/// for container in try await api.dockerContainers(serverID: server.id) {
///   print(container.displayName, container.state, container.image)
/// }
/// ```
public struct DockerContainer: Codable, Hashable, Sendable, Identifiable {
  /// The container's id.
  public var id: String
  /// Docker's name for it, which may start with `/` (see ``displayName``).
  public var name: String
  /// The image it runs.
  public var image: String
  /// `running`, `exited`, `paused`, `created`, `restarting`, `removing` or `dead`.
  public var state: String
  /// Docker's words for the state (`Up 3 hours`).
  public var status: String
  /// When it was created, unix seconds.
  public var created: Int64
  /// Its ports.
  public var ports: [DockerPort]
  /// Its labels.
  public var labels: [String: String]

  /// Creates a container.
  /// - Parameters:
  ///   - id: Id.
  ///   - name: Docker's name.
  ///   - image: Image.
  ///   - state: State.
  ///   - status: Status text.
  ///   - created: Creation, unix seconds.
  ///   - ports: Ports.
  ///   - labels: Labels.
  public init(
    id: String, name: String, image: String, state: String, status: String, created: Int64,
    ports: [DockerPort] = [], labels: [String: String] = [:]
  ) {
    self.id = id
    self.name = name
    self.image = image
    self.state = state
    self.status = status
    self.created = created
    self.ports = ports
    self.labels = labels
  }

  /// The name without Docker's leading `/`.
  public var displayName: String { name.hasPrefix("/") ? String(name.dropFirst()) : name }

  /// Whether the container is running.
  public var isRunning: Bool { state == "running" }

  /// Whether `reference` names this container as an agent finds one: its full id, an id prefix
  /// of 12 or more characters, or its name with or without the leading `/`
  /// (Protocol/AppRoutes.md §8.3).
  ///
  /// ```swift
  /// let containers = try await api.dockerContainers(serverID: "server-1")
  /// let web = containers.first { $0.isNamed(by: "stack-web-1") }
  /// ```
  public func isNamed(by reference: String) -> Bool {
    Self.reference(reference, names: id, name)
  }

  /// Whether `reference` names the container with this `id` and `name` (see ``isNamed(by:)``).
  public static func reference(_ reference: String, names id: String, _ name: String) -> Bool {
    guard !reference.isEmpty else { return false }
    return id == reference || (reference.count >= 12 && id.hasPrefix(reference))
      || name == reference || name == "/" + reference
  }
}

/// The answer of `GET /api/servers/{id}/docker/containers` (Protocol/AppRoutes.md §8.2).
public struct DockerContainersResponse: Codable, Hashable, Sendable {
  /// The containers (the agent's last report; may be empty).
  public var containers: [DockerContainer]

  /// Creates an answer.
  /// - Parameter containers: The containers.
  public init(containers: [DockerContainer]) { self.containers = containers }
}

/// One container's resource use, from `GET /api/servers/{id}/docker/stats`
/// (Protocol/AppRoutes.md §8.2).
///
/// ```swift
/// for stats in try await api.dockerStats(serverID: server.id) {
///   print(stats.name, stats.cpuPercent, stats.memoryUsage)
/// }
/// ```
public struct DockerContainerStats: Codable, Hashable, Sendable, Identifiable {
  /// The container's id.
  public var id: String
  /// Its name.
  public var name: String
  /// CPU use, percent (may exceed 100 on several cores).
  public var cpuPercent: Double
  /// Memory used, bytes.
  public var memoryUsage: Int64
  /// Memory limit, bytes.
  public var memoryLimit: Int64
  /// Memory used, percent of the limit.
  public var memoryPercent: Double
  /// Bytes received.
  public var networkRx: Int64
  /// Bytes sent.
  public var networkTx: Int64
  /// Bytes read from block devices.
  public var blockRead: Int64
  /// Bytes written to block devices.
  public var blockWrite: Int64

  /// Creates a sample.
  /// - Parameters:
  ///   - id: Container id.
  ///   - name: Name.
  ///   - cpuPercent: CPU, percent.
  ///   - memoryUsage: Memory, bytes.
  ///   - memoryLimit: Limit, bytes.
  ///   - memoryPercent: Memory, percent.
  ///   - networkRx: Received.
  ///   - networkTx: Sent.
  ///   - blockRead: Read.
  ///   - blockWrite: Written.
  public init(
    id: String, name: String, cpuPercent: Double, memoryUsage: Int64, memoryLimit: Int64,
    memoryPercent: Double, networkRx: Int64, networkTx: Int64, blockRead: Int64,
    blockWrite: Int64
  ) {
    self.id = id
    self.name = name
    self.cpuPercent = cpuPercent
    self.memoryUsage = memoryUsage
    self.memoryLimit = memoryLimit
    self.memoryPercent = memoryPercent
    self.networkRx = networkRx
    self.networkTx = networkTx
    self.blockRead = blockRead
    self.blockWrite = blockWrite
  }

  private enum CodingKeys: String, CodingKey {
    case id, name
    case cpuPercent = "cpu_percent"
    case memoryUsage = "memory_usage"
    case memoryLimit = "memory_limit"
    case memoryPercent = "memory_percent"
    case networkRx = "network_rx"
    case networkTx = "network_tx"
    case blockRead = "block_read"
    case blockWrite = "block_write"
  }
}

/// The answer of `GET /api/servers/{id}/docker/stats` (Protocol/AppRoutes.md §8.2).
public struct DockerStatsResponse: Codable, Hashable, Sendable {
  /// One sample per container.
  public var stats: [DockerContainerStats]

  /// Creates an answer.
  /// - Parameter stats: The samples.
  public init(stats: [DockerContainerStats]) { self.stats = stats }
}

/// The Docker engine of a server, from `GET /api/servers/{id}/docker/info`
/// (Protocol/AppRoutes.md §8.2).
///
/// ```swift
/// let info = try await api.dockerInfo(serverID: server.id)
/// print("Docker \(info.dockerVersion), \(info.containersRunning) running")
/// ```
public struct DockerInfo: Codable, Hashable, Sendable {
  /// The engine's version (`27.3.1`).
  public var dockerVersion: String
  /// The API version (`1.47`).
  public var apiVersion: String
  /// The host's operating system.
  public var os: String
  /// The host's architecture.
  public var arch: String
  /// Containers running.
  public var containersRunning: Int
  /// Containers paused.
  public var containersPaused: Int
  /// Containers stopped.
  public var containersStopped: Int
  /// Images stored.
  public var images: Int
  /// The host's memory, bytes.
  public var memoryTotal: Int64

  /// Creates an engine description.
  /// - Parameters:
  ///   - dockerVersion: Engine version.
  ///   - apiVersion: API version.
  ///   - os: Operating system.
  ///   - arch: Architecture.
  ///   - containersRunning: Running.
  ///   - containersPaused: Paused.
  ///   - containersStopped: Stopped.
  ///   - images: Images.
  ///   - memoryTotal: Memory, bytes.
  public init(
    dockerVersion: String, apiVersion: String, os: String, arch: String, containersRunning: Int,
    containersPaused: Int, containersStopped: Int, images: Int, memoryTotal: Int64
  ) {
    self.dockerVersion = dockerVersion
    self.apiVersion = apiVersion
    self.os = os
    self.arch = arch
    self.containersRunning = containersRunning
    self.containersPaused = containersPaused
    self.containersStopped = containersStopped
    self.images = images
    self.memoryTotal = memoryTotal
  }

  private enum CodingKeys: String, CodingKey {
    case dockerVersion = "docker_version"
    case apiVersion = "api_version"
    case os, arch
    case containersRunning = "containers_running"
    case containersPaused = "containers_paused"
    case containersStopped = "containers_stopped"
    case images
    case memoryTotal = "memory_total"
  }
}

/// The answer of `GET /api/servers/{id}/docker/info` (Protocol/AppRoutes.md §8.2).
public struct DockerInfoResponse: Codable, Hashable, Sendable {
  /// The engine.
  public var info: DockerInfo

  /// Creates an answer.
  /// - Parameter info: The engine.
  public init(info: DockerInfo) { self.info = info }
}

/// One Docker event the server stored, from `GET /api/servers/{id}/docker/events`
/// (Protocol/AppRoutes.md §8.2), newest first.
///
/// ```swift
/// for event in try await api.dockerEvents(serverID: server.id, limit: 20) {
///   print(event.timestamp, event.eventType, event.action, event.actorName ?? event.actorID)
/// }
/// ```
public struct DockerEvent: Codable, Hashable, Sendable {
  /// When it happened, unix seconds.
  public var timestamp: Int64
  /// What it is about: `container`, `image`, `network`, `volume`…
  public var eventType: String
  /// What happened: `start`, `die`, `pull`…
  public var action: String
  /// The object's id.
  public var actorID: String
  /// The object's name, when it has one.
  public var actorName: String?
  /// Docker's attributes of the event.
  public var attributes: [String: String]

  /// Creates an event.
  /// - Parameters:
  ///   - timestamp: Unix seconds.
  ///   - eventType: Object kind.
  ///   - action: What happened.
  ///   - actorID: Object id.
  ///   - actorName: Object name.
  ///   - attributes: Attributes.
  public init(
    timestamp: Int64, eventType: String, action: String, actorID: String,
    actorName: String? = nil, attributes: [String: String] = [:]
  ) {
    self.timestamp = timestamp
    self.eventType = eventType
    self.action = action
    self.actorID = actorID
    self.actorName = actorName
    self.attributes = attributes
  }

  private enum CodingKeys: String, CodingKey {
    case timestamp
    case eventType = "event_type"
    case action
    case actorID = "actor_id"
    case actorName = "actor_name"
    case attributes
  }

  /// Writes every member, `null` included, in the server's key order.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(timestamp, forKey: .timestamp)
    try c.encode(eventType, forKey: .eventType)
    try c.encode(action, forKey: .action)
    try c.encode(actorID, forKey: .actorID)
    try c.encode(actorName, forKey: .actorName)
    try c.encode(attributes, forKey: .attributes)
  }
}

/// The answer of `GET /api/servers/{id}/docker/events` (Protocol/AppRoutes.md §8.2).
public struct DockerEventsResponse: Codable, Hashable, Sendable {
  /// The events, newest first.
  public var events: [DockerEvent]

  /// Creates an answer.
  /// - Parameter events: The events.
  public init(events: [DockerEvent]) { self.events = events }
}

/// One Docker network, from `GET /api/servers/{id}/docker/networks` (Protocol/AppRoutes.md §8.2).
public struct DockerNetwork: Codable, Hashable, Sendable, Identifiable {
  /// The network's id.
  public var id: String
  /// Its name.
  public var name: String
  /// Its driver (`bridge`, `host`, `overlay`…).
  public var driver: String
  /// `local` or `swarm`.
  public var scope: String
  /// The containers attached, container id to name.
  public var containers: [String: String]

  /// Creates a network.
  /// - Parameters:
  ///   - id: Id.
  ///   - name: Name.
  ///   - driver: Driver.
  ///   - scope: Scope.
  ///   - containers: Attached containers, id to name.
  public init(
    id: String, name: String, driver: String, scope: String, containers: [String: String] = [:]
  ) {
    self.id = id
    self.name = name
    self.driver = driver
    self.scope = scope
    self.containers = containers
  }
}

/// The answer of `GET /api/servers/{id}/docker/networks` (Protocol/AppRoutes.md §8.2).
public struct DockerNetworksResponse: Codable, Hashable, Sendable {
  /// The networks.
  public var networks: [DockerNetwork]

  /// Creates an answer.
  /// - Parameter networks: The networks.
  public init(networks: [DockerNetwork]) { self.networks = networks }
}

/// One Docker volume, from `GET /api/servers/{id}/docker/volumes` (Protocol/AppRoutes.md §8.2).
public struct DockerVolume: Codable, Hashable, Sendable, Identifiable {
  /// The volume's name.
  public var name: String
  /// Its driver.
  public var driver: String
  /// Where it lives on the host.
  public var mountpoint: String
  /// When it was created, as Docker writes it; `nil` when unknown.
  public var createdAt: String?
  /// Its labels.
  public var labels: [String: String]

  /// The volume's name.
  public var id: String { name }

  /// Creates a volume.
  /// - Parameters:
  ///   - name: Name.
  ///   - driver: Driver.
  ///   - mountpoint: Host path.
  ///   - createdAt: Creation, as Docker writes it.
  ///   - labels: Labels.
  public init(
    name: String, driver: String, mountpoint: String, createdAt: String? = nil,
    labels: [String: String] = [:]
  ) {
    self.name = name
    self.driver = driver
    self.mountpoint = mountpoint
    self.createdAt = createdAt
    self.labels = labels
  }

  private enum CodingKeys: String, CodingKey {
    case name, driver, mountpoint
    case createdAt = "created_at"
    case labels
  }

  /// Writes every member, `null` included, in the server's key order.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(name, forKey: .name)
    try c.encode(driver, forKey: .driver)
    try c.encode(mountpoint, forKey: .mountpoint)
    try c.encode(createdAt, forKey: .createdAt)
    try c.encode(labels, forKey: .labels)
  }
}

/// The answer of `GET /api/servers/{id}/docker/volumes` (Protocol/AppRoutes.md §8.2).
public struct DockerVolumesResponse: Codable, Hashable, Sendable {
  /// The volumes.
  public var volumes: [DockerVolume]

  /// Creates an answer.
  /// - Parameter volumes: The volumes.
  public init(volumes: [DockerVolume]) { self.volumes = volumes }
}

/// What to do to a container (Protocol/AppRoutes.md §2.7, §8.3), written as the server's
/// externally tagged, PascalCase enum: `"Start"`, `{"Stop":{"timeout":N|null}}`,
/// `{"Restart":{"timeout":N|null}}`, `{"Remove":{"force":bool}}`.
///
/// ```swift
/// let result = try await api.dockerContainerAction(
///   serverID: server.id, containerID: container.id, .stop(timeout: 10))
/// ```
public enum DockerContainerAction: Codable, Hashable, Sendable {
  /// Starts a stopped container.
  case start
  /// Stops it, waiting `timeout` seconds before killing it (`nil`: Docker's default).
  case stop(timeout: Int?)
  /// Restarts it, with the same `timeout` as ``stop(timeout:)``.
  case restart(timeout: Int?)
  /// Removes it; `force` removes a running container too.
  case remove(force: Bool)

  /// The variant's name on the wire: `Start`, `Stop`, `Restart` or `Remove`.
  public var tag: String {
    switch self {
    case .start: "Start"
    case .stop: "Stop"
    case .restart: "Restart"
    case .remove: "Remove"
    }
  }

  private enum Tag: String, CodingKey {
    case start = "Start"
    case stop = "Stop"
    case restart = "Restart"
    case remove = "Remove"
  }

  private enum Field: String, CodingKey {
    case timeout, force
  }

  /// Reads `"Start"` or a one-key object naming the variant.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for any other shape or name.
  public init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self)
    {
      guard name == "Start" else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: decoder.codingPath, debugDescription: "unknown action \(name)"))
      }
      self = .start
      return
    }
    let c = try decoder.container(keyedBy: Tag.self)
    guard let key = c.allKeys.first, c.allKeys.count == 1 else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "an action names one variant"))
    }
    switch key {
    case .start:
      self = .start
    case .stop:
      let fields = try c.nestedContainer(keyedBy: Field.self, forKey: key)
      self = .stop(timeout: try fields.decodeIfPresent(Int.self, forKey: .timeout))
    case .restart:
      let fields = try c.nestedContainer(keyedBy: Field.self, forKey: key)
      self = .restart(timeout: try fields.decodeIfPresent(Int.self, forKey: .timeout))
    case .remove:
      let fields = try c.nestedContainer(keyedBy: Field.self, forKey: key)
      self = .remove(force: try fields.decode(Bool.self, forKey: .force))
    }
  }

  /// Writes the server's form; a `nil` timeout is written as `null`.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .start:
      var c = encoder.singleValueContainer()
      try c.encode("Start")
    case .stop(let timeout), .restart(let timeout):
      var c = encoder.container(keyedBy: Tag.self)
      var fields = c.nestedContainer(keyedBy: Field.self, forKey: tagKey)
      try fields.encode(timeout, forKey: .timeout)
    case .remove(let force):
      var c = encoder.container(keyedBy: Tag.self)
      var fields = c.nestedContainer(keyedBy: Field.self, forKey: .remove)
      try fields.encode(force, forKey: .force)
    }
  }

  private var tagKey: Tag { Tag(rawValue: tag) ?? .start }
}

/// The body of `POST /api/servers/{id}/docker/containers/{cid}/action`
/// (Protocol/AppRoutes.md §8.3): `{"action": …}`.
public struct DockerActionRequest: Codable, Hashable, Sendable {
  /// The action.
  public var action: DockerContainerAction

  /// Creates a body.
  /// - Parameter action: The action.
  public init(action: DockerContainerAction) { self.action = action }
}

/// The answer of a container action (Protocol/AppRoutes.md §8.3). A failure on the agent's side
/// is an HTTP 200 with `success` false and the agent's words in `error`.
///
/// ```swift
/// let result = try await api.dockerContainerAction(
///   serverID: server.id, containerID: id, .start)
/// if !result.success { print("the agent said:", result.error ?? "nothing") }
/// ```
public struct DockerActionResult: Codable, Hashable, Sendable {
  /// Whether the agent did it.
  public var success: Bool
  /// The agent's explanation of a failure.
  public var error: String?

  /// Creates a result.
  /// - Parameters:
  ///   - success: Done.
  ///   - error: Why not.
  public init(success: Bool, error: String? = nil) {
    self.success = success
    self.error = error
  }

  private enum CodingKeys: String, CodingKey {
    case success, error
  }

  /// Writes both members, `null` included.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(success, forKey: .success)
    try c.encode(error, forKey: .error)
  }
}
