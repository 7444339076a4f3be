public import Foundation
import ServerBeeCore
import ServerBeeModels
public import ServerBeeTransport

/// A local ServerBee-compatible server: the v1 + v2 mobile contract over real loopback sockets,
/// persisted in SQLite, with a control API under `/__simulator/`.
///
/// Start one per test with a fresh temporary directory, drive it with any HTTP client, and
/// script it through the control API (or ``handle(_:remoteAddress:)`` in process):
///
/// ```swift
/// let simulator = try Simulator(configuration: .init())
/// _ = try simulator.createUser(username: "admin", password: "pw", role: "admin")
/// let url = try simulator.start()  // http://127.0.0.1:<ephemeral port>
/// defer { simulator.stop() }
/// ```
public final class Simulator: Sendable {
  /// Settings with the contract's defaults.
  public struct Configuration: Sendable {
    /// Where the SQLite database lives; a fresh temporary directory by default.
    public var dataDirectory: URL
    /// Access-token lifetime in seconds (900).
    public var accessTTL: Int64 = 900
    /// Refresh-token lifetime in seconds (2,592,000 = 30 days).
    public var refreshTTL: Int64 = 2_592_000
    /// Pair-code lifetime in seconds (300).
    public var pairCodeTTL: Int64 = 300
    /// Recovery-grant lifetime in seconds (300).
    public var recoveryGrantTTL: Int64 = 300
    /// Web (cookie) session lifetime in seconds (7 days).
    public var webSessionTTL: Int64 = 604_800
    /// Seconds between simulated agent reports; `nil` disables the ticker (use the control API).
    public var metricsInterval: TimeInterval? = 3
    /// The control token; random when `nil`.
    public var controlToken: String?
    /// Largest request head in bytes (16 KiB).
    public var maximumHeadSize = 16 * 1024
    /// Largest request body in bytes (1 MiB); larger bodies get 413.
    public var maximumBodySize = 1024 * 1024
    /// Seconds a keep-alive connection may stay idle between requests (30), and a client may
    /// take to send one whole request, counted from its first byte (408 after).
    public var idleTimeout: TimeInterval = 30
    /// Seconds a client may take to send a request head, counted from its first byte (the
    /// first request on a connection: from accept), 408 after; also the TLS handshake limit
    /// (10).
    public var requestHeadTimeout: TimeInterval = 10
    /// Most concurrent connections (1024), lowered at ``Simulator/start(port:tls:)`` to what
    /// the descriptor limit holds: `(RLIMIT_NOFILE - 64) / 5`, since a WebSocket takes 5
    /// descriptors (and 1 thread); ``Simulator/prepareProcess()`` raises the limit first. When
    /// all are taken, a new connection displaces the longest-idle keep-alive connection, else
    /// the one slowest to send its request (after 1 s at it), and is answered `503` only when
    /// every connection is busy with a complete request or a WebSocket.
    public var maximumConnections = 1024
    /// Where the simulator reports trouble that has no caller to answer, one line at a time
    /// (out of connections or descriptors: once a minute at most); `nil` (the default) for
    /// silence. The executable writes these lines to stderr.
    public var log: (@Sendable (String) -> Void)?
    /// The push relay, `[push_relay].url` of a real server (Protocol/Push.md §2.7): usable only as
    /// `https://…` or `http://127.0.0.1:PORT`. `nil` (the default) means no push delivery:
    /// `delivery_available` is false, encrypted-register answers 400, new tests 403.
    public var relayURL: String?
    /// How long one relay request may take, in seconds (15): the total deadline of the
    /// request, connect to last byte.
    public var relayTimeout: TimeInterval = 15
    /// How many outbox workers ``Simulator/start(port:tls:)`` starts (4); 0 leaves the outbox
    /// to ``Simulator/runOutbox()`` and `POST /__simulator/push/outbox/run`.
    public var outboxWorkers = 4
    /// How long a Docker route waits for an agent that does not answer before its 408, in
    /// seconds (30, the server's wait; Protocol/AppRoutes.md §8.1). The wait blocks the
    /// request's thread: over the network that is the connection's own thread, but
    /// ``Simulator/handle(_:remoteAddress:)`` runs on the caller's, so in-process tests set it
    /// to 0 (the 408 at once).
    public var dockerAgentTimeout: TimeInterval = 30
    /// The HTTP client for the relay; the native `SocketHTTPTransport` with ``relayTimeout``
    /// and a 64 KiB cap on the answer when `nil` (a verdict is under 100 bytes; a larger
    /// answer is a failed attempt, retried like a lost connection).
    public var relayTransport: (any HTTPTransport)?
    /// Whether the large answers are kept while the database is unchanged (`true`): the server
    /// rows, the `GET /api/servers` body and, for the rest of its second, the last `full_sync`
    /// frame. A benchmark knob: `false` makes every such request build its answer, as when the
    /// rows changed in between (a cache miss): `GET /api/servers` reads the rows, and a
    /// `full_sync` joins the per-server objects the simulator keeps in memory like a real
    /// server's agent state (rebuilt from the rows only for servers whose rows changed).
    /// Answers are the same either way. The default is `false` only when the environment variable
    /// `SERVERBEE_SIMULATOR_CACHE` is `off`, so the executable can be measured without a
    /// special build (`scripts/simulator-load.sh --no-cache`).
    public var cachesAnswers =
      ProcessInfo.processInfo.environment["SERVERBEE_SIMULATOR_CACHE"] != "off"

    /// The temporary directory ``init(dataDirectory:)`` made up when given none: a
    /// ``Simulator`` using it removes it when released (so test runs leave no directories).
    let temporaryDirectory: URL?

    /// Creates a configuration.
    /// - Parameter dataDirectory: The database directory; `nil` makes a fresh temporary one,
    ///   removed when the simulator that uses it is released.
    public init(dataDirectory: URL? = nil) {
      if let dataDirectory {
        self.dataDirectory = dataDirectory
        temporaryDirectory = nil
      } else {
        let made = FileManager.default.temporaryDirectory.appendingPathComponent(
          "serverbee-simulator-\(UUID().uuidString)")
        self.dataDirectory = made
        temporaryDirectory = made
      }
    }
  }

  let core: SimulatorCore
  /// The data directory's lock: taken by `init`, released by ``stop()`` and `deinit` (or the
  /// process's end), taken again by a ``start(port:tls:)`` after a stop.
  private let directoryLock: Locked<DataDirectoryLock?>
  /// The temporary data directory this simulator made up, removed on release.
  private let ownedDirectory: URL?
  private let listener = Locked<HTTPListener?>(nil)
  private let ticker = Locked<Ticker?>(nil)
  /// Moves running agent upgrades and lapses offers on a clock that follows the wall clock.
  private let agentTicker = Locked<Ticker?>(nil)
  private let workers = Locked<OutboxWorkers?>(nil)
  private let connectionCap = Locked(0)

  /// The connection cap in force since ``start(port:tls:)``: ``Configuration/maximumConnections``,
  /// or fewer when the descriptor limit holds fewer (5 descriptors per WebSocket); 0 before.
  public var maximumConnections: Int { connectionCap.withLock { $0 } }

  /// Readies this process for many connections: raises the soft `RLIMIT_NOFILE` to the hard
  /// limit, and caps glibc's malloc arenas at 2.
  ///
  /// glibc gives each thread that allocates an arena of its own (up to 8 per core), and every
  /// WebSocket has a thread: 100 clients took 224–316 MB, 1.5–3 MB each. With two
  /// arenas a subscribed client costs about 150 KiB. Both settings are process-wide, so the
  /// executable calls this first thing; a library user decides for their own process.
  /// - Returns: The soft descriptor limit now.
  @discardableResult
  public static func prepareProcess() -> Int {
    _ = ConnectionBudget.limitMallocArenas(to: 2)
    return ConnectionBudget.raiseDescriptorLimit()
  }

  /// Claims the data directory, opens (or creates and migrates) the database and prepares the
  /// application.
  ///
  /// The directory is this simulator's alone until it is released: an exclusive lock on
  /// `simulator.lock` is held until ``stop()``, deallocation or the end of the process, and a
  /// second simulator on the same directory, in any process, throws `dataDirectoryInUse`
  /// without touching the data. A directory the simulator creates is 0700 and every file it
  /// writes is 0600. The clock offset of an earlier run on the same directory
  /// (``SimulatorClock/advance(by:)``) is restored into `clock`.
  /// - Parameters:
  ///   - configuration: The settings.
  ///   - clock: The clock for every expiry; the wall clock by default.
  /// - Throws: ``ServerBeeSimulatorError`` with code `dataDirectoryInUse` or `storageFailed`.
  public convenience init(configuration: Configuration, clock: SimulatorClock = SimulatorClock())
    throws
  {
    try self.init(configuration: configuration, clock: clock, random: SecureRandom.bytes)
  }

  init(configuration: Configuration, clock: SimulatorClock, random: @escaping RandomBytes) throws {
    // Before anything reads or writes the database: a second simulator on the same directory
    // must leave it alone (it would take over the outbox leases and send every push twice).
    directoryLock = Locked(try DataDirectoryLock(directory: configuration.dataDirectory))
    // Still the directory the configuration made up (not one set afterwards): ours to remove.
    ownedDirectory =
      configuration.temporaryDirectory == configuration.dataDirectory
      ? configuration.temporaryDirectory : nil
    core = try SimulatorCore(settings: configuration, clock: clock, random: random)
    let hub = core.hub
    clock.onAdvance { hub.wakeAll() }
    // Offers lapse and upgrades move on when the clock is moved (Protocol/Agents.md §10, §11).
    clock.onAdvance { [weak core] in core?.clockMoved() }
    // The clock offset is state like any other: tokens issued at an advanced "now" must not
    // come back from the past after a restart. Every advance is written through (the control
    // route's and a direct `clock.advance(by:)` alike), and the stored offset is restored here.
    let db = core.db
    if let saved = try db.scalar(Self.savedOffsetQuery).real { clock.restore(offset: saved) }
    clock.onAdvance { [weak db, weak clock] in
      guard let db, let clock else { return }
      _ = try? db.execute(
        "INSERT INTO simulator_state (key, value) VALUES ('clock_offset', ?) "
          + "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [.real(clock.offset)])
    }
  }

  deinit {
    stop()
    if let ownedDirectory { try? FileManager.default.removeItem(at: ownedDirectory) }
  }

  private static let savedOffsetQuery =
    "SELECT value FROM simulator_state WHERE key = 'clock_offset'"

  /// The token the control API expects in the `X-Simulator-Token` header.
  public var controlToken: String { core.controlToken }

  /// The simulator's clock (advance it to expire tokens, codes and grants).
  public var clock: SimulatorClock { core.clock }

  /// Answers one request exactly as the network front-end would, without sockets.
  /// - Parameters:
  ///   - request: The request; only the URL's path and query are used.
  ///   - remoteAddress: The client IP, which keys the login rate limit.
  /// - Returns: The response.
  public func handle(_ request: HTTPRequest, remoteAddress: String = "127.0.0.1") async
    -> HTTPResponse
  {
    let context = RequestContext(request, remoteAddress: remoteAddress)
    if core.outboxRunRequest(context) != nil {
      // The outbox pass awaits the relay; it must not block a thread of the cooperative pool.
      guard context.method == "POST" else { return HTTPResponse(status: 405) }
      guard request.headers["x-simulator-token"] == core.controlToken else {
        return HTTPResponse(status: 401)
      }
      do {
        return core.outboxReport(try await core.runOutboxPass())
      } catch {
        return HTTPResponse(status: 500)
      }
    }
    return core.respond(request, remoteAddress: remoteAddress)
  }

  /// Sends every due outbox job once, in order, and records each answer, as
  /// `POST /__simulator/push/outbox/run` does: the step-by-step way to drive delivery in tests
  /// (with ``Configuration/outboxWorkers`` 0 and the clock advanced between steps).
  ///
  /// ```swift
  /// simulator.clock.advance(by: 4)  // the first retry is due 4 s after attempt 1
  /// let attempts = try await simulator.runOutbox()
  /// ```
  /// - Returns: How many attempts were made.
  /// - Throws: ``ServerBeeSimulatorError`` with code `storageFailed`.
  @discardableResult
  public func runOutbox() async throws -> Int {
    try await core.runOutboxPass().count
  }

  /// Points the simulator at a relay (or at none), as `PUT /__simulator/push/relay` does.
  /// - Parameter url: The relay's base URL, for example `http://127.0.0.1:49200`, or `nil`.
  public func setRelayURL(_ url: String?) {
    core.relayURL.withLock { $0 = url }
  }

  /// Creates a user, as the control API's `POST /__simulator/users` does.
  /// - Parameters:
  ///   - username: The login name.
  ///   - password: The password.
  ///   - role: `"admin"` or `"member"`.
  ///   - totpSecret: A base32 TOTP secret to require 2FA, or `nil`.
  /// - Returns: The new user's id.
  /// - Throws: ``ServerBeeSimulatorError`` with code `invalidConfiguration` for a duplicate name
  ///   or an unknown role.
  @discardableResult
  public func createUser(
    username: String, password: String, role: String = "member", totpSecret: String? = nil
  ) throws -> String {
    do {
      return try core.db.serial {
        try core.createUser(
          username: username, password: password, role: role, totpSecret: totpSecret)
      }
    } catch is APIError {
      throw ServerBeeSimulatorError(.invalidConfiguration, "cannot create user \(username)")
    }
  }

  /// Creates `count` online servers named `server-1`…, with simulated metrics.
  /// - Parameter count: How many servers.
  /// - Returns: Their ids.
  /// - Throws: ``ServerBeeSimulatorError`` with code `storageFailed`.
  @discardableResult
  public func createServers(count: Int) throws -> [String] {
    try core.db.serial {
      try (0..<max(count, 0)).map { try core.createServer(name: "server-\($0 + 1)") }
    }
  }

  /// Creates those of `server-1`…`server-N` that do not exist yet (by name), so seeding again
  /// with the same data directory, as a restarted `serverbee-simulator --servers N` does, adds
  /// no duplicates.
  ///
  /// ```swift
  /// try simulator.ensureServers(count: 3)  // server-1…server-3, once
  /// try simulator.ensureServers(count: 3)  // nothing new
  /// ```
  /// - Parameter count: How many `server-K` names must exist.
  /// - Returns: The ids of the servers created now.
  /// - Throws: ``ServerBeeSimulatorError`` with code `storageFailed`.
  @discardableResult
  public func ensureServers(count: Int) throws -> [String] {
    try core.db.serial {
      let existing = Set(try core.allServers().map(\.name))
      return try (0..<max(count, 0)).map { "server-\($0 + 1)" }
        .filter { !existing.contains($0) }
        .map { try core.createServer(name: $0) }
    }
  }

  /// Turns Docker on for `server-1`…`server-N` (those that exist): the docker capability (bit
  /// 128) in their mask and the `docker` feature their agent reports, so the Docker routes
  /// answer for them (Protocol/AppRoutes.md §8.6). The other servers keep neither, as every
  /// server starts.
  ///
  /// ```swift
  /// try simulator.ensureServers(count: 3)
  /// try simulator.enableDocker(servers: 2)  // server-3 has no Docker
  /// ```
  /// - Parameter count: How many of the `server-K` names get Docker.
  /// - Throws: ``ServerBeeSimulatorError`` with code `storageFailed`.
  public func enableDocker(servers count: Int) throws {
    try core.db.serial {
      let names = Set((0..<max(count, 0)).map { "server-\($0 + 1)" })
      for server in try core.allServers() where names.contains(server.name) {
        try DockerArea.setDocker(core, serverID: server.id, capability: true, feature: true)
      }
    }
  }

  /// Gives every server a made-up past: a record a minute for the last `days` days (at most
  /// 31) before its oldest record, with a daily wave and seeded noise, so history charts have
  /// something to draw at once. Idempotent: a second call, or a restart with the same data
  /// directory, writes nothing already covered.
  ///
  /// ```swift
  /// try simulator.ensureServers(count: 3)
  /// try simulator.backfillHistory(days: 7)  // 3 × 7 × 1,440 rows
  /// ```
  /// - Parameter days: How many days back, 0 to 31.
  /// - Returns: How many rows were written.
  /// - Throws: ``ServerBeeSimulatorError`` with code `storageFailed`.
  @discardableResult
  public func backfillHistory(days: Int) throws -> Int {
    try core.db.serial { try core.backfillHistory(days: days) }
  }

  /// Produces one simulated agent report for every online server (one `update` frame each).
  /// - Throws: ``ServerBeeSimulatorError`` with code `storageFailed`.
  public func tick() throws { try core.db.serial { try core.tick() } }

  /// Starts listening on 127.0.0.1.
  /// - Parameters:
  ///   - port: The port; 0 picks an ephemeral one.
  ///   - tls: A PEM certificate and key to serve `https`/`wss`, or `nil` for plain HTTP.
  /// - Returns: The base URL, for example `http://127.0.0.1:49152`.
  /// - Throws: ``ServerBeeSimulatorError`` with code `listenFailed`, or `dataDirectoryInUse`
  ///   when this simulator was stopped and another one has opened its directory since.
  public func start(port: UInt16 = 0, tls: TLSFiles? = nil) throws -> URL {
    let directory = core.settings.dataDirectory
    try directoryLock.withLock { $0 = try $0 ?? DataDirectoryLock(directory: directory) }
    let cap = ConnectionBudget.connectionCap(
      configured: core.settings.maximumConnections,
      descriptorLimit: ConnectionBudget.descriptorLimit)
    let server = try HTTPListener(core: core, port: port, tls: tls, maximumConnections: cap)
    connectionCap.withLock { $0 = cap }
    let scheme = tls == nil ? "http" : "https"
    let text = "\(scheme)://127.0.0.1:\(server.port)"
    core.serverURL.withLock { $0 = text }
    listener.withLock { $0 = server }
    if core.settings.outboxWorkers > 0 {
      let core = self.core
      workers.withLock {
        $0 = $0 ?? OutboxWorkers(core: core, count: core.settings.outboxWorkers)
      }
    }
    do {
      let core = self.core
      agentTicker.withLock {
        $0?.stop()
        $0 = Ticker(interval: 0.25) { core.clockMoved() }
      }
    }
    if let interval = core.settings.metricsInterval {
      let core = self.core
      ticker.withLock {
        $0 = Ticker(interval: interval) { try? core.db.serial { try core.tick() } }
      }
    }
    guard let url = URL(string: text) else {
      throw ServerBeeSimulatorError(.listenFailed, "bad listen URL \(text)")
    }
    return url
  }

  /// Stops the ticker, refuses new connections at once and closes every open one (WebSockets
  /// get close 1001); their tasks end on their own right after. Then releases the data
  /// directory, so a new ``Simulator`` may open it (a restart in the same process); calls
  /// on this one after that are no longer exclusive.
  public func stop() {
    ticker.withLock {
      $0?.stop()
      $0 = nil
    }
    agentTicker.withLock {
      $0?.stop()
      $0 = nil
    }
    let server = listener.withLock { value -> HTTPListener? in
      defer { value = nil }
      return value
    }
    server?.stop()
    core.hub.closeAll()
    let stopping = workers.withLock { value -> OutboxWorkers? in
      defer { value = nil }
      return value
    }
    stopping?.stop()
    directoryLock.withLock { $0 = nil }
  }

  /// A PEM certificate chain and private key for the TLS listener.
  public struct TLSFiles: Sendable {
    /// The certificate chain file (PEM).
    public var certificate: URL
    /// The private key file (PEM).
    public var privateKey: URL

    /// Creates the pair.
    /// - Parameters:
    ///   - certificate: The certificate file.
    ///   - privateKey: The key file.
    public init(certificate: URL, privateKey: URL) {
      self.certificate = certificate
      self.privateKey = privateKey
    }
  }
}

/// A background thread that calls `body` every `interval` seconds until stopped.
final class Ticker: Sendable {
  private let state = Locked<Bool>(false)
  private let condition = NSCondition()

  init(interval: TimeInterval, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread { [state, condition] in
      while true {
        condition.lock()
        _ = condition.wait(until: Date().addingTimeInterval(interval))
        condition.unlock()
        if state.withLock({ $0 }) { return }
        body()
      }
    }
    thread.name = "serverbee-simulator-ticker"
    thread.start()
  }

  func stop() {
    state.withLock { $0 = true }
    condition.lock()
    condition.broadcast()
    condition.unlock()
  }
}
