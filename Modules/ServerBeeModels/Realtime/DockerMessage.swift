/// A `docker_update` or `docker_event` frame, with its Docker payload kept as JSON.
///
/// ``body`` holds every member except `type` and `server_id` (for `docker_update`: `containers`
/// and `stats`; for `docker_event`: `event`). Encoding writes `type`, `server_id`, then the
/// members of ``body`` in order.
public struct DockerMessage: Codable, Hashable, Sendable {
  /// The Docker host.
  public var serverID: String
  /// The other members, as a JSON object.
  public var body: JSONValue

  /// Creates a message.
  /// - Parameters:
  ///   - serverID: Server id.
  ///   - body: The other members (a JSON object; anything else is written as no members).
  public init(serverID: String, body: JSONValue) {
    self.serverID = serverID
    self.body = body
  }

  /// Decodes `server_id` and keeps the rest as ``body``.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when `server_id` is missing or not a string.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: AnyCodingKey.self)
    serverID = try c.decode(String.self, forKey: AnyCodingKey("server_id"))
    var members: [(key: String, value: JSONValue)] = []
    for key in c.allKeys where key.stringValue != "type" && key.stringValue != "server_id" {
      members.append((key.stringValue, try c.decode(JSONValue.self, forKey: key)))
    }
    body = .object(members)
  }

  /// Encodes `server_id` then the members of ``body``.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: AnyCodingKey.self)
    try c.encode(serverID, forKey: AnyCodingKey("server_id"))
    guard case .object(let members) = body else { return }
    for member in members { try c.encode(member.value, forKey: AnyCodingKey(member.key)) }
  }
}

/// A `docker_availability_changed` frame: Docker appeared or vanished on a server.
public struct DockerAvailabilityChange: Codable, Hashable, Sendable {
  /// The server.
  public var serverID: String
  /// Whether Docker is available now.
  public var available: Bool

  /// Creates a change.
  /// - Parameters:
  ///   - serverID: Server id.
  ///   - available: Availability.
  public init(serverID: String, available: Bool) {
    self.serverID = serverID
    self.available = available
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case available
  }
}
