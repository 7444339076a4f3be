public import ServerBeeModels
import ServerBeeRoutes
public import ServerBeeTransport

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ServerBeeError.Code where Domain == RealtimeStreamDomain {
  /// The server refused the logs socket: no valid credential (HTTP 401).
  public static let unauthorized = Self("unauthorized")
  /// The server refused the logs socket with 403: the account is not an admin, or the server's
  /// Docker capability is off (the two refusals differ only in their body, which WebSocket
  /// transports do not pass on; Protocol/AppRoutes.md §8.4).
  public static let forbidden = Self("forbidden")
  /// The server's agent is offline (the logs socket's HTTP 400 `Agent is offline`).
  public static let agentOffline = Self("agent_offline")
  /// The socket could not be opened, or broke, for another reason; see `underlying`.
  public static let connectionFailed = Self("connection_failed")
  /// The server sent something the protocol does not allow (no `session` first).
  public static let protocolViolation = Self("protocol_violation")
}

/// One container's log lines from `GET /api/ws/docker/logs/{server_id}`
/// (Protocol/AppRoutes.md §8.4), an admin-only WebSocket.
///
/// ``open(server:serverID:tokens:transport:)`` connects with a Bearer token and waits for the
/// server's `session` message, which comes before anything may be sent; then
/// ``subscribe(containerID:tail:follow:)`` asks for a container's lines (the last `tail`, 100
/// by default, then new ones while `follow`, true by default), ``unsubscribe()`` stops them,
/// and ``close()`` ends the socket cleanly (close 1000). The lines arrive on ``batches`` in the
/// server's batches, oldest first; keep the recent ones in a ``DockerLogWindow`` (the app keeps
/// 1,000).
///
/// A slow reader stays bounded: at most ``bufferedBatches`` batches wait for the consumer, then
/// the socket is not read until the consumer takes one (the transport's own inbox has a high-water
/// mark too), so TCP slows the server instead of memory growing; no line is dropped. A reader
/// that wants only the newest lines keeps a window and reads on.
///
/// ```swift
/// let logs = try await DockerLogStream.open(
///   server: server, serverID: id, tokens: authClient, transport: SocketWebSocketTransport())
/// try await logs.subscribe(containerID: container.id, tail: 200)
/// var window = DockerLogWindow()
/// for try await batch in logs.batches {
///   window.append(batch)
///   for entry in batch { print(entry.message) }
/// }
/// ```
public final class DockerLogStream: Sendable {
  /// The most batches that wait for the consumer of ``batches`` before the socket is not read:
  /// 16.
  public static let bufferedBatches = 16

  /// The session id the server gave.
  public let sessionID: String
  /// The lines, batch by batch, oldest first; it ends when the socket closes (normally, or with
  /// a ``RealtimeStreamError`` `.connectionFailed` when it breaks). One consumer.
  public let batches: AsyncThrowingStream<[DockerLogEntry], any Error>

  private let connection: any WebSocketConnection
  private let channel: BackpressuredStream<[DockerLogEntry]>
  private let reader: Task<Void, Never>

  private init(
    sessionID: String, connection: any WebSocketConnection,
    channel: BackpressuredStream<[DockerLogEntry]>, reader: Task<Void, Never>
  ) {
    self.sessionID = sessionID
    self.connection = connection
    self.channel = channel
    self.batches = channel.makeStream()
    self.reader = reader
    channel.setOnTermination { reader.cancel() }
  }

  deinit { reader.cancel() }

  /// How many batches wait for the consumer now, at most ``bufferedBatches`` (for tests).
  var bufferedBatchCount: Int { channel.bufferedCount }

  /// Opens the socket and waits for the server's `session` message.
  ///
  /// ```swift
  /// let logs = try await DockerLogStream.open(
  ///   server: server, serverID: id, tokens: authClient, transport: transport)
  /// print("session", logs.sessionID)
  /// ```
  /// - Parameters:
  ///   - server: The server's base URL (`wss` for `https`).
  ///   - serverID: The server whose containers to read.
  ///   - tokens: Supplies the Bearer token (an admin's).
  ///   - transport: The WebSocket transport.
  /// - Returns: The open stream, not yet subscribed.
  /// - Throws: ``RealtimeStreamError``: `.unauthorized` (401), `.forbidden` (403: not an admin,
  ///   or the Docker capability is off), `.agentOffline` (400), `.connectionFailed`,
  ///   `.protocolViolation` (the socket closed or sent something else before `session`); or
  ///   the token provider's error, or `CancellationError`.
  public static func open(
    server: ServerURL, serverID: String, tokens: any AccessTokenProvider,
    transport: any WebSocketTransport
  ) async throws -> DockerLogStream {
    guard !serverID.isEmpty else {
      throw RealtimeStreamError(.connectionFailed, "the server id must not be empty")
    }
    let path =
      (try? RouteCatalogue.Docker.dockerLogs.template.path([serverID]))
      ?? RouteCatalogue.Docker.dockerLogs.template.text
    let token = try await tokens.validAccessToken()
    let connection: any WebSocketConnection
    do {
      connection = try await transport.connect(
        to: server.webSocketEndpoint(path), headers: tokens.credentialHeaders(for: token))
    } catch let error as ServerBeeTransportError where error.code == .upgradeRejected {
      throw refusal(error)
    } catch let error as ServerBeeTransportError {
      throw RealtimeStreamError(
        .connectionFailed, "the logs socket could not be opened: \(error.message)",
        underlying: error)
    }
    // One task reads the socket: the first message must be `session`
    // (Protocol/AppRoutes.md §8.4); it is handed over here, and the batches after it go to the
    // consumer's channel.
    let channel = BackpressuredStream<[DockerLogEntry]>(capacity: bufferedBatches)
    let (sessions, session) = AsyncStream.makeStream(
      of: Result<String, RealtimeStreamError>.self, bufferingPolicy: .bufferingNewest(1))
    let reader = Task { await read(connection, session: session, into: channel) }
    let first = await withTaskCancellationHandler {
      await sessions.first { _ in true }
    } onCancel: {
      reader.cancel()
    }
    switch first {
    case .success(let id)?:
      return DockerLogStream(
        sessionID: id, connection: connection, channel: channel, reader: reader)
    case .failure(let error)?:
      reader.cancel()
      await connection.close(code: .normalClosure, reason: nil)
      throw error
    case nil:
      reader.cancel()
      await connection.close(code: .normalClosure, reason: nil)
      throw CancellationError()
    }
  }

  /// Asks for a container's lines; a later subscription replaces this one.
  ///
  /// ```swift
  /// try await logs.subscribe(containerID: id, tail: 50, follow: false)
  /// ```
  /// - Parameters:
  ///   - containerID: The container's id (or name).
  ///   - tail: How many past lines first; `nil` for the server's 100.
  ///   - follow: Whether new lines follow; `nil` for the server's true.
  /// - Throws: ``RealtimeStreamError`` `.connectionFailed` when the socket is closed.
  public func subscribe(containerID: String, tail: Int? = nil, follow: Bool? = nil) async throws {
    try await send(.subscribe(containerID: containerID, tail: tail, follow: follow))
  }

  /// Stops the lines of the current subscription; the socket stays open.
  /// - Throws: ``RealtimeStreamError`` `.connectionFailed` when the socket is closed.
  public func unsubscribe() async throws { try await send(.unsubscribe) }

  /// Closes the socket (1000) and ends ``batches`` after the lines already received.
  public func close() async {
    await connection.close(code: .normalClosure, reason: nil)
  }

  private func send(_ message: DockerLogClientMessage) async throws {
    do {
      try await connection.send(.text(try message.text()))
    } catch {
      throw RealtimeStreamError(
        .connectionFailed, "the logs socket is closed", underlying: error)
    }
  }

  /// Reads the socket: the `session` message to `session`, then every `logs` batch to the
  /// consumer, waiting while ``bufferedBatches`` are unread; other messages (and ones that do
  /// not decode) are skipped.
  private static func read(
    _ connection: any WebSocketConnection,
    session: AsyncStream<Result<String, RealtimeStreamError>>.Continuation,
    into channel: BackpressuredStream<[DockerLogEntry]>
  ) async {
    let notStarted = RealtimeStreamError(
      .protocolViolation, "the logs socket did not start with a session message")
    var started = false
    do {
      for try await message in connection.inbound {
        guard case .text(let text) = message else { continue }
        let decoded = try? DockerLogServerMessage.decode(text)
        if !started {
          guard case .session(let id)? = decoded else {
            session.yield(.failure(notStarted))
            session.finish()
            return
          }
          started = true
          session.yield(.success(id))
          session.finish()
          continue
        }
        guard case .logs(let entries)? = decoded, !entries.isEmpty else { continue }
        guard await channel.send(entries) else { return }
      }
      if !started { session.yield(.failure(notStarted)) }
      session.finish()
      channel.finish()
    } catch {
      let broke = RealtimeStreamError(
        .connectionFailed, "the logs socket broke", underlying: error)
      if !started { session.yield(.failure(broke)) }
      session.finish()
      channel.finish(throwing: broke)
    }
  }

  /// The error of a refused upgrade, by its status (Protocol/AppRoutes.md §8.4).
  static func refusal(_ error: ServerBeeTransportError) -> RealtimeStreamError {
    switch error.httpStatus {
    case 401?:
      RealtimeStreamError(
        .unauthorized, "the server refused the credentials for the logs socket",
        httpStatus: 401, underlying: error)
    case 403?:
      RealtimeStreamError(
        .forbidden,
        "the server refused the logs socket: only an admin may read container logs, and only "
          + "where the docker capability is on", httpStatus: 403, underlying: error)
    case 400?:
      RealtimeStreamError(
        .agentOffline, "the server's agent is offline, so its container logs cannot be read",
        httpStatus: 400, underlying: error)
    default:
      RealtimeStreamError(
        .connectionFailed, "the logs socket could not be opened: \(error.message)",
        httpStatus: error.httpStatus, underlying: error)
    }
  }
}

/// The most recent log lines, at most ``capacity`` (1,000 by default, as the app keeps): older
/// lines fall out as new ones come in.
///
/// ```swift
/// var window = DockerLogWindow()
/// for try await batch in logs.batches { window.append(batch) }
/// print(window.entries.count)  // ≤ 1000
/// ```
public struct DockerLogWindow: Sendable, Hashable {
  /// The most lines kept.
  public let capacity: Int
  /// The lines kept, oldest first.
  public private(set) var entries: [DockerLogEntry] = []
  /// How many lines fell out so far.
  public private(set) var dropped = 0

  /// Creates an empty window.
  /// - Parameter capacity: The most lines kept; at least 1 (1,000 by default).
  public init(capacity: Int = 1_000) { self.capacity = max(1, capacity) }

  /// Adds lines at the end, dropping the oldest beyond ``capacity``.
  /// - Parameter batch: The new lines, oldest first.
  public mutating func append(_ batch: some Collection<DockerLogEntry>) {
    let kept = batch.suffix(capacity)
    dropped += batch.count - kept.count
    let overflow = entries.count + kept.count - capacity
    if overflow > 0 {
      entries.removeFirst(overflow)
      dropped += overflow
    }
    entries.append(contentsOf: kept)
  }
}
