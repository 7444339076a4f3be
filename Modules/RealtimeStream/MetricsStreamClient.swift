public import ServerBeeModels
import ServerBeeRoutes
public import ServerBeeTransport

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Keeps a live copy of the fleet from `GET /api/ws/servers`, reconnecting for as long as it runs.
///
/// Each subscriber gets its own stream: ``snapshots()`` yields the current ``FleetState`` first
/// and then a new one after every frame that changed it (latest value wins when a subscriber is
/// slow); ``events()`` yields connection changes and security events through a bounded buffer.
///
/// The connection is authenticated with a Bearer token from an `AccessTokenProvider` (the auth
/// client). Reconnects use exponential backoff — 1 s doubling to 30 s, ±20 % jitter — reset once a
/// connection delivers its first frame. A close with code 4001 (`token expired`) or an HTTP 401
/// at the upgrade asks the provider for a token that replaces the rejected one and reconnects at
/// once. A protocol ping goes out every ``Configuration/pingInterval``; a connection whose pong
/// does not come back within ``Configuration/pongTimeout`` is closed and replaced.
///
/// ```swift
/// let client = MetricsStreamClient(
///   server: try ServerURL("https://monitor.example.com"), tokens: authClient,
///   transport: SocketWebSocketTransport())
/// await client.start()
/// for await fleet in await client.snapshots() {
///   for server in fleet.servers { print(server.name, server.cpu) }
/// }
/// ```
public actor MetricsStreamClient {
  /// Settings with documented defaults.
  public struct Configuration: Sendable {
    /// How often a protocol ping is sent; 25 s (the iOS client's interval).
    public var pingInterval: Duration = .seconds(25)
    /// How long to wait for a pong before the connection counts as dead; 10 s.
    public var pongTimeout: Duration = .seconds(10)
    /// First retry delay; 1 s.
    public var initialBackoff: Double = 1
    /// Longest retry delay; 30 s.
    public var maximumBackoff: Double = 30
    /// Relative jitter applied to each delay; 0.2 (±20 %).
    public var jitter: Double = 0.2
    /// Events kept for a subscriber that is not reading; the oldest are dropped. 256.
    public var eventBufferSize = 256

    /// The defaults.
    public init() {}
  }

  /// The connection as subscribers see it.
  public enum ConnectionStatus: Sendable, Hashable {
    /// Not started.
    case idle
    /// Opening a connection.
    case connecting
    /// Connected; frames flow.
    case connected
    /// Waiting before the next attempt.
    case waitingToReconnect(seconds: Double)
    /// Getting a new token after the server refused the current one.
    case refreshingToken
    /// Stopped by ``stop()``.
    case stopped
  }

  /// Something subscribers may want to react to beyond the fleet itself.
  public enum Event: Sendable, Hashable {
    /// The connection status changed.
    case connection(ConnectionStatus)
    /// A security event the server stored (Protocol/Security.md §4).
    case securityEvent(LiveSecurityEvent)
    /// A server came online.
    case serverOnline(id: String)
    /// A server went offline.
    case serverOffline(id: String)
    /// Any other message that does not change the fleet (Docker, probes, firewall…), and each
    /// step a client may follow in order although it changes the fleet too:
    /// `agent_authority_changed`, `upgrade_progress` and `upgrade_result`.
    case message(LiveStreamMessage)
    /// A frame could not be decoded; it was skipped.
    case undecodableFrame(String)
  }

  private let endpoint: URL
  private let tokens: any AccessTokenProvider
  private let transport: any WebSocketTransport
  private let configuration: Configuration
  private let clock: any Clock<Duration>
  /// Wall time, for what the stream does not timestamp (an `upgrade_result`'s end).
  private let now: @Sendable () -> Date
  private var machine: ReconnectStateMachine

  private var fleet = FleetState()
  private var status = ConnectionStatus.idle
  private var connection: (id: Int, socket: any WebSocketConnection)?
  private var connectionTask: Task<Void, Never>?
  private var timerTask: Task<Void, Never>?
  private var refreshTask: Task<Void, Never>?
  private var rejectedToken: String?
  private var snapshotSubscribers: [UUID: AsyncStream<FleetState>.Continuation] = [:]
  private var eventSubscribers: [UUID: AsyncStream<Event>.Continuation] = [:]

  /// Creates a client for a server.
  /// - Parameters:
  ///   - server: The server's base URL; the stream is `<server>/api/ws/servers` (`wss` for
  ///     `https`).
  ///   - tokens: Supplies Bearer tokens (the auth client).
  ///   - transport: The WebSocket transport (`SocketWebSocketTransport` in production).
  ///   - configuration: Intervals and limits.
  public init(
    server: ServerURL, tokens: any AccessTokenProvider, transport: any WebSocketTransport,
    configuration: Configuration = Configuration()
  ) {
    self.init(
      server: server, tokens: tokens, transport: transport, configuration: configuration,
      clock: ContinuousClock(), random: { Double.random(in: 0..<1) }, now: { Date() })
  }

  /// Creates a client with every seam injectable (tests).
  init(
    server: ServerURL, tokens: any AccessTokenProvider, transport: any WebSocketTransport,
    configuration: Configuration, clock: any Clock<Duration>,
    random: @escaping @Sendable () -> Double,
    now: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 0) }
  ) {
    self.now = now
    self.endpoint = server.webSocketEndpoint(RouteCatalogue.Live.fleetStream.template.text)
    self.tokens = tokens
    self.transport = transport
    self.configuration = configuration
    self.clock = clock
    self.machine = ReconnectStateMachine(
      backoff: .init(
        initial: configuration.initialBackoff, maximum: configuration.maximumBackoff,
        jitter: configuration.jitter),
      random: random)
  }

  deinit {
    connectionTask?.cancel()
    timerTask?.cancel()
    refreshTask?.cancel()
  }

  // MARK: Public API

  /// Starts connecting; does nothing if already started or stopped.
  public func start() {
    perform(machine.handle(.start))
  }

  /// Closes the connection and stops reconnecting; subscriber streams finish.
  public func stop() async {
    let open = connection?.socket
    perform(machine.handle(.stop))
    if let open { await open.close(code: .normalClosure, reason: nil) }
  }

  /// The fleet as of the last frame.
  public var currentFleet: FleetState { fleet }

  /// The current connection status.
  public var connectionStatus: ConnectionStatus { status }

  /// A stream of fleet snapshots: the current one first, then one per change (latest wins).
  /// - Returns: A stream for one consumer; it finishes when the client stops.
  public func snapshots() -> AsyncStream<FleetState> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: FleetState.self, bufferingPolicy: .bufferingNewest(1))
    let id = UUID()
    snapshotSubscribers[id] = continuation
    continuation.yield(fleet)
    continuation.onTermination = { [weak self] _ in
      Task { await self?.removeSnapshotSubscriber(id) }
    }
    if status == .stopped { continuation.finish() }
    return stream
  }

  /// A stream of events: the current connection status first, then events as they happen.
  /// - Returns: A stream for one consumer, buffering at most
  ///   ``Configuration/eventBufferSize`` events (the newest are kept).
  public func events() -> AsyncStream<Event> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Event.self, bufferingPolicy: .bufferingNewest(configuration.eventBufferSize))
    let id = UUID()
    eventSubscribers[id] = continuation
    continuation.yield(.connection(status))
    continuation.onTermination = { [weak self] _ in
      Task { await self?.removeEventSubscriber(id) }
    }
    if status == .stopped { continuation.finish() }
    return stream
  }

  /// Merges server configuration from `GET /api/servers` into the fleet and publishes it.
  /// - Parameter servers: The configuration list.
  public func mergeConfiguration(_ servers: [ServerResponse]) {
    fleet.mergeConfiguration(servers)
    publishFleet()
  }

  // MARK: State machine actions

  private func perform(_ actions: [ReconnectStateMachine.Action]) {
    for action in actions {
      switch action {
      case .connect(let id):
        setStatus(.connecting)
        connectionTask?.cancel()
        connectionTask = Task { [weak self] in await self?.runConnection(id: id) }
      case .refreshToken:
        setStatus(.refreshingToken)
        refreshTask = Task { [weak self] in await self?.refreshToken() }
      case .scheduleRetry(let seconds):
        setStatus(.waitingToReconnect(seconds: seconds))
        let clock = self.clock
        timerTask = Task { [weak self] in
          do {
            try await clock.sleep(for: .milliseconds(Int64((seconds * 1000).rounded())))
          } catch {
            return
          }
          await self?.handle(.retryTimerFired)
        }
      case .shutDown:
        connectionTask?.cancel()
        timerTask?.cancel()
        refreshTask?.cancel()
        connection = nil
        setStatus(.stopped)
        for continuation in snapshotSubscribers.values { continuation.finish() }
        for continuation in eventSubscribers.values { continuation.finish() }
        snapshotSubscribers.removeAll()
        eventSubscribers.removeAll()
      }
    }
  }

  private func handle(_ event: ReconnectStateMachine.Event) {
    perform(machine.handle(event))
  }

  private func refreshToken() async {
    let succeeded: Bool
    do {
      if let rejectedToken {
        _ = try await tokens.accessToken(afterRejectionOf: rejectedToken)
      } else {
        _ = try await tokens.validAccessToken()
      }
      succeeded = true
    } catch {
      succeeded = false
    }
    guard !Task.isCancelled else { return }
    handle(.tokenRefreshed(succeeded: succeeded))
  }

  // MARK: One connection

  private func runConnection(id: Int) async {
    let token: String
    do {
      token = try await tokens.validAccessToken()
    } catch {
      if !Task.isCancelled { handle(.failed(connection: id, .other)) }
      return
    }
    let open: any WebSocketConnection
    do {
      open = try await transport.connect(
        to: endpoint, headers: tokens.credentialHeaders(for: token))
    } catch let error as ServerBeeTransportError
      where error.code == .upgradeRejected && error.httpStatus == 401
    {
      rejectedToken = token
      if !Task.isCancelled { handle(.failed(connection: id, .unauthorized)) }
      return
    } catch {
      if !Task.isCancelled { handle(.failed(connection: id, .other)) }
      return
    }
    guard !Task.isCancelled, machine.state == .connecting(id: id) else {
      await open.close(code: .goingAway, reason: nil)
      return
    }
    connection = (id, open)
    handle(.opened(connection: id))
    setStatus(.connected)

    let pinger = Task { [weak self, clock, configuration] in
      await Self.keepAlive(open, clock: clock, configuration: configuration)
      await self?.connectionDied(id: id)
    }
    defer { pinger.cancel() }

    var failure = ReconnectStateMachine.Failure.other
    do {
      for try await message in open.inbound {
        guard case .text(let text) = message else { continue }
        receive(text, connection: id)
      }
      if await open.receivedClose?.code == .tokenExpired {
        failure = .unauthorized
        rejectedToken = token
      }
    } catch {
      failure = .other
    }
    guard !Task.isCancelled else { return }
    if connection?.id == id { connection = nil }
    handle(.failed(connection: id, failure))
  }

  /// Pings every interval; returns when a pong does not come back in time or the connection
  /// fails (and nothing when cancelled).
  private static func keepAlive(
    _ connection: any WebSocketConnection, clock: any Clock<Duration>,
    configuration: Configuration
  ) async {
    while !Task.isCancelled {
      do {
        try await clock.sleep(for: configuration.pingInterval)
      } catch {
        return
      }
      let answered = await withTaskGroup(of: Bool.self) { group in
        group.addTask {
          do {
            try await connection.ping()
            return true
          } catch {
            return false
          }
        }
        group.addTask {
          try? await clock.sleep(for: configuration.pongTimeout)
          return false
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
      }
      if !answered {
        if Task.isCancelled { return }
        await connection.close(code: .goingAway, reason: "ping timeout")
        return
      }
    }
  }

  /// The keep-alive gave up on connection `id` (it already closed the socket).
  private func connectionDied(id: Int) {
    guard connection?.id == id else { return }
    connectionTask?.cancel()
    connection = nil
    handle(.failed(connection: id, .other))
  }

  private func receive(_ text: String, connection id: Int) {
    let message: LiveStreamMessage
    do {
      message = try LiveFrameDecoder.decode(text)
    } catch {
      publish(.undecodableFrame(String(describing: error)))
      return
    }
    handle(.frameReceived(connection: id))
    switch fleet.apply(message, receivedAt: RFC3339Timestamp(now())) {
    case .none:
      switch message {
      case .securityEvent(let event): publish(.securityEvent(event))
      case .unknown: break
      default: publish(.message(message))
      }
    case .changed(let serverID):
      if case .serverOnline = message { publish(.serverOnline(id: serverID)) }
      if case .serverOffline = message { publish(.serverOffline(id: serverID)) }
      if Self.isStep(message) { publish(.message(message)) }
      publishFleet()
    default:
      if Self.isStep(message) { publish(.message(message)) }
      publishFleet()
    }
  }

  /// A frame that is one step of something a client follows in order (an agent's enrolment,
  /// an upgrade): an event whether or not it changed the fleet, since snapshots keep only the
  /// latest state.
  private static func isStep(_ message: LiveStreamMessage) -> Bool {
    switch message {
    case .agentAuthorityChanged, .upgradeProgress, .upgradeResult: true
    default: false
    }
  }

  // MARK: Subscribers

  private func setStatus(_ new: ConnectionStatus) {
    guard new != status else { return }
    status = new
    publish(.connection(new))
  }

  private func publish(_ event: Event) {
    for continuation in eventSubscribers.values { continuation.yield(event) }
  }

  private func publishFleet() {
    for continuation in snapshotSubscribers.values { continuation.yield(fleet) }
  }

  private func removeSnapshotSubscriber(_ id: UUID) { snapshotSubscribers[id] = nil }
  private func removeEventSubscriber(_ id: UUID) { eventSubscribers[id] = nil }
}
