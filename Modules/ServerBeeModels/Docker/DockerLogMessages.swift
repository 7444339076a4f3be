#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One log line of a container, from the docker-logs socket (Protocol/AppRoutes.md §8.4).
///
/// ```swift
/// for try await entry in stream.lines(containerID: id) {
///   print(entry.stream, entry.message)
/// }
/// ```
public struct DockerLogEntry: Codable, Hashable, Sendable {
  /// Docker's timestamp of the line (RFC 3339 with nanoseconds), when it gave one.
  public var timestamp: String?
  /// `stdout` or `stderr`.
  public var stream: String
  /// The line, as the container wrote it: remote text, to be cleaned before printing.
  public var message: String

  /// Creates a line.
  /// - Parameters:
  ///   - timestamp: Docker's timestamp.
  ///   - stream: `stdout` or `stderr`.
  ///   - message: The text.
  public init(timestamp: String?, stream: String, message: String) {
    self.timestamp = timestamp
    self.stream = stream
    self.message = message
  }

  /// Whether the line came from the container's standard error.
  public var isStandardError: Bool { stream == "stderr" }

  private enum CodingKeys: String, CodingKey {
    case timestamp, stream, message
  }

  /// Writes every member, `null` included, in the server's key order.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(timestamp, forKey: .timestamp)
    try c.encode(stream, forKey: .stream)
    try c.encode(message, forKey: .message)
  }
}

/// A message the server sends on `GET /api/ws/docker/logs/{server_id}`
/// (Protocol/AppRoutes.md §8.4): the session first, then batches of lines.
///
/// ```swift
/// switch try DockerLogServerMessage.decode(text) {
/// case .session(let id): print("session", id)
/// case .logs(let entries): entries.forEach { print($0.message) }
/// case .unknown: break
/// }
/// ```
public enum DockerLogServerMessage: Hashable, Sendable {
  /// `{"type":"session","session_id":…}`: the socket is ready for a subscription.
  case session(id: String)
  /// `{"type":"logs","entries":[…]}`: lines, oldest first.
  case logs([DockerLogEntry])
  /// A message of another `type`, kept by name and skipped.
  case unknown(type: String)

  private struct Envelope: Decodable {
    var type: String
    var sessionID: String?
    var entries: [DockerLogEntry]?

    enum CodingKeys: String, CodingKey {
      case type
      case sessionID = "session_id"
      case entries
    }
  }

  /// Decodes one text message.
  /// - Parameter text: The message.
  /// - Returns: The message.
  /// - Throws: ``ServerBeeModelsError`` (`malformedJSON`, `missingField`, `invalidField`) when
  ///   it is not an object with a `type`, or a `session` without its id, or `logs` without
  ///   entries.
  public static func decode(_ text: String) throws -> Self {
    let envelope = try WireJSON.decode(Envelope.self, from: Data(text.utf8))
    switch envelope.type {
    case "session":
      guard let id = envelope.sessionID else {
        throw ServerBeeModelsError(.missingField, "a docker-logs session has no session_id")
      }
      return .session(id: id)
    case "logs":
      guard let entries = envelope.entries else {
        throw ServerBeeModelsError(.missingField, "a docker-logs batch has no entries")
      }
      return .logs(entries)
    default:
      return .unknown(type: envelope.type)
    }
  }
}

/// A message the client sends on the docker-logs socket (Protocol/AppRoutes.md §8.4).
///
/// ```swift
/// let text = try DockerLogClientMessage.subscribe(containerID: id, tail: 200, follow: true)
///   .text()
/// try await connection.send(.text(text))
/// ```
public enum DockerLogClientMessage: Hashable, Sendable {
  /// `{"type":"subscribe","container_id":…,"tail":…,"follow":…}`. The server reads an absent
  /// (here: `nil`) `tail` as 100 and an absent `follow` as true.
  case subscribe(containerID: String, tail: Int?, follow: Bool?)
  /// `{"type":"unsubscribe"}`: stops the lines.
  case unsubscribe

  /// The message's JSON text, keys in the app's order; `nil` members left out.
  /// - Returns: The text.
  /// - Throws: Whatever the encoder throws (nothing for these values).
  public func text() throws -> String {
    var fields: [(String, String)] = []
    switch self {
    case .subscribe(let containerID, let tail, let follow):
      fields.append(("type", "\"subscribe\""))
      fields.append(
        ("container_id", String(decoding: try WireJSON.encode(containerID), as: UTF8.self)))
      if let tail { fields.append(("tail", String(tail))) }
      if let follow { fields.append(("follow", follow ? "true" : "false")) }
    case .unsubscribe:
      fields.append(("type", "\"unsubscribe\""))
    }
    return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }
}
