import Foundation
public import SecureStore
public import ServerBeeModels
public import ServerBeeTransport

/// Sends one test notification and follows it to its outcome, the way the iOS app does
/// (Protocol/Push.md §2.6): a new lowercase UUID per logical test, persisted with its login
/// scope and request **before** the POST; a lost reply is retried with the same UUID and
/// revision; `pending`/`retryable` are polled; a 404 before the server confirmed admission
/// re-POSTs the same UUID, a 404 after it is an error; a restart resumes the same test, never a
/// new deadline (the 30 minutes are the server's).
///
/// ```swift
/// guard settings.state.canSendTest, let revision = settings.state.confirmed?.revision else { return }
/// let tracker = TestPushTracker(transport: api, session: auth, store: store)
/// for try await progress in await tracker.send(expectedRevision: revision) {
///   print(progress.statusLine(.english))  // "Encrypted test queued on the Server. …"
/// }
/// ```
///
/// `accepted` means the push provider accepted the notification, never that it was displayed.
public actor TestPushTracker {
  /// One observed status of the test.
  public struct Progress: Sendable, Hashable {
    /// The test's event id (lowercase UUID).
    public var eventID: String
    /// Where the delivery stands.
    public var outcome: PushOutcome
    /// The server's display-only reason.
    public var reason: PushDeliveryReason

    /// Whether the outcome is final (not `pending` or `retryable`).
    public var isFinal: Bool { !outcome.isInProgress }

    /// The status line to show, in English or Simplified Chinese.
    /// - Parameter language: The language.
    /// - Returns: The line.
    public func statusLine(_ language: TestPushStatusText.Language) -> String {
      TestPushStatusText.line(for: outcome, language: language)
    }
  }

  /// What is persisted for the test in flight (app-private group).
  struct Record: Codable, Sendable, Equatable {
    var scope: String
    var request: TestPushRequest
    var admitted: Bool
    var lastOutcome: String?
  }

  static let storeKey: CredentialKey = "serverbee_pending_test_push"

  private let api: PushSetupAPI
  private let session: any SessionContext
  private let store: any CredentialStore
  /// The store's caller executor: every method of the tracker runs on its thread.
  private let executor: CredentialStoreExecutor
  private let clock: any Clock<Duration>
  private let makeUUID: @Sendable () -> UUID
  private let pollInterval: Duration
  private let maximumSendAttempts: Int
  private let maximumFailedReads: Int?
  private var running: Task<Void, Never>?

  /// The executor every method of the tracker runs on: its store's
  /// `CredentialStore/callerExecutor`, so persisting the test in flight to a `CredentialStore` (a blocking call)
  /// never holds a thread of the cooperative pool.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// Creates a tracker.
  /// - Parameters:
  ///   - transport: HTTP with the session's token (the authorised decorator).
  ///   - session: The signed-in session; its scope owns the test.
  ///   - store: Where the test in flight is kept (app-private group).
  ///   - pollInterval: Time between status reads; 2 s by default.
  ///   - maximumSendAttempts: POST attempts after a lost reply before giving up; 3 by default.
  ///   - maximumFailedReads: Status reads in a row that may fail to reach the server before
  ///     following ends with that failure (`transportFailed`; the test stays stored and
  ///     ``lastTest()`` follows it later). `nil` (the default, right for an app that waits
  ///     for the network to return) keeps reading until a final outcome; a command line that
  ///     must end when the server is down passes a small number. Each read is bounded by the
  ///     transport's request timeout.
  public init(
    transport: any HTTPTransport, session: any SessionContext, store: any CredentialStore,
    pollInterval: Duration = .seconds(2), maximumSendAttempts: Int = 3,
    maximumFailedReads: Int? = nil
  ) {
    self.init(
      transport: transport, session: session, store: store, pollInterval: pollInterval,
      maximumSendAttempts: maximumSendAttempts, maximumFailedReads: maximumFailedReads,
      clock: ContinuousClock(), makeUUID: { UUID() })
  }

  /// Every seam: the clock for polling and the UUID source.
  init(
    transport: any HTTPTransport, session: any SessionContext, store: any CredentialStore,
    pollInterval: Duration, maximumSendAttempts: Int, maximumFailedReads: Int? = nil,
    clock: any Clock<Duration>, makeUUID: @escaping @Sendable () -> UUID
  ) {
    api = PushSetupAPI(transport: transport)
    self.session = session
    self.store = store
    self.executor = store.callerExecutor
    self.pollInterval = pollInterval
    self.maximumSendAttempts = max(1, maximumSendAttempts)
    self.maximumFailedReads = maximumFailedReads.map { max(1, $0) }
    self.clock = clock
    self.makeUUID = makeUUID
  }

  deinit { running?.cancel() }

  /// Starts a new test with a new event id and follows it until a final outcome.
  /// - Parameter expectedRevision: The confirmed settings revision.
  /// - Returns: Each status as it is observed, ending after the final one; it throws
  ///   ``NotificationPreferencesError`` (`notSignedIn` also when the login changes while
  ///   following, `storageFailed`, `testNotFound` for a 404 after admission, or the route's
  ///   codes). Ending the loop stops following; the test stays stored and can be resumed.
  public func send(expectedRevision: Int64) -> AsyncThrowingStream<Progress, any Error> {
    follow {
      guard let identity = $0.session.currentIdentity else {
        throw NotificationPreferencesError(.notSignedIn, "no login to send a test for")
      }
      let record = Record(
        scope: identity.scope,
        request: TestPushRequest(
          eventID: $0.makeUUID().uuidString.lowercased(), expectedRevision: expectedRevision),
        admitted: false)
      try $0.save(record)  // before the POST: a lost reply is retried with this identity
      return record
    }
  }

  /// Resumes the test of this login that a previous run left unfinished (after a restart).
  /// - Returns: The statuses from now on, or `nil` when no unfinished test of the current login
  ///   is stored.
  public func resume() -> AsyncThrowingStream<Progress, any Error>? {
    guard let record = try? storedRecord(), record.scope == session.currentIdentity?.scope,
      record.lastOutcome.map({ PushOutcome(rawValue: $0).isInProgress }) ?? true
    else { return nil }
    return follow { _ in record }
  }

  /// The last test this login sent, followed from where it stands: the same event id read
  /// again from the server until a final outcome (a test whose first answer was lost is
  /// posted again with the same id and revision). Never a new test and never a new deadline:
  /// the server's 30-minute window keeps running from the first admission.
  ///
  /// ```swift
  /// if let progress = await tracker.lastTest() {
  ///   for try await update in progress { print(update.statusLine(.english)) }
  /// }
  /// ```
  /// - Returns: The statuses from now on (a finished test gives its final status once), or
  ///   `nil` when the current login has sent no test.
  public func lastTest() -> AsyncThrowingStream<Progress, any Error>? {
    guard let record = try? storedRecord(), record.scope == session.currentIdentity?.scope
    else { return nil }
    return follow { _ in record }
  }

  /// The event id of the stored test of the current login, if any.
  public var storedEventID: String? {
    guard let record = try? storedRecord(), record.scope == session.currentIdentity?.scope
    else { return nil }
    return record.request.eventID
  }

  // MARK: - Following

  private func follow(
    _ prepare: @escaping @Sendable (isolated TestPushTracker) throws -> Record
  ) -> AsyncThrowingStream<Progress, any Error> {
    running?.cancel()
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: Progress.self, throwing: (any Error).self)
    // The task holds the tracker while it follows: a caller may drop its reference and keep
    // iterating. Ending the iteration cancels the task (onTermination), which releases it.
    let task = Task {
      do {
        try await self.run(prepare, continuation)
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
    running = task
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }

  private func run(
    _ prepare: @Sendable (isolated TestPushTracker) throws -> Record,
    _ continuation: AsyncThrowingStream<Progress, any Error>.Continuation
  ) async throws {
    var record = try prepare(self)
    var status: TestPushResponse
    if record.admitted {
      status = try await read(&record)
    } else {
      status = try await post(&record)
    }
    while true {
      continuation.yield(Self.progress(status))
      record.lastOutcome = status.outcome.rawValue
      try save(record)
      if !status.outcome.isInProgress { return }
      try await clock.sleep(for: pollInterval)
      status = try await read(&record)
    }
  }

  /// POSTs the stored request, retrying a lost reply with the same event id and revision.
  private func post(_ record: inout Record) async throws -> TestPushResponse {
    var attempt = 0
    while true {
      try checkScope(record)
      attempt += 1
      do {
        let status = try await api.sendTest(record.request, server: try server())
        record.admitted = true
        try save(record)
        return status
      } catch let error as NotificationPreferencesError
        where error.code == .transportFailed && attempt < maximumSendAttempts
      {
        try await clock.sleep(for: pollInterval)
      }
    }
  }

  /// Reads the status; a 404 before admission re-POSTs, after admission it is an error; a
  /// lost reply is read again at the next interval, until `maximumFailedReads` in a row failed.
  private func read(_ record: inout Record) async throws -> TestPushResponse {
    var failures = 0
    while true {
      try checkScope(record)
      do {
        return try await api.testStatus(eventID: record.request.eventID, server: try server())
      } catch let error as NotificationPreferencesError where error.code == .testNotFound {
        guard !record.admitted else {
          throw NotificationPreferencesError(
            .testNotFound, "the server no longer knows this test", httpStatus: 404)
        }
        return try await post(&record)
      } catch let error as NotificationPreferencesError where error.code == .transportFailed {
        failures += 1
        if let limit = maximumFailedReads, failures >= limit { throw error }
        try await clock.sleep(for: pollInterval)
      }
    }
  }

  private func server() throws -> ServerURL {
    guard let identity = session.currentIdentity else {
      throw NotificationPreferencesError(.notSignedIn, "signed out while following the test")
    }
    return identity.server
  }

  private func checkScope(_ record: Record) throws {
    guard session.currentIdentity?.scope == record.scope else {
      throw NotificationPreferencesError(
        .notSignedIn, "the login changed: the test belongs to the previous one")
    }
  }

  private static func progress(_ status: TestPushResponse) -> Progress {
    Progress(eventID: status.eventID, outcome: status.outcome, reason: status.reason)
  }

  // MARK: - Store

  private func save(_ record: Record) throws {
    do {
      try store.setValue(record, forKey: Self.storeKey, in: .appPrivate)
    } catch {
      throw NotificationPreferencesError(
        .storageFailed, "the test could not be stored", underlying: error)
    }
  }

  private func storedRecord() throws -> Record? {
    try store.value(Record.self, forKey: Self.storeKey, in: .appPrivate)
  }
}
