import Foundation

/// Where the callers of a ``CredentialStore`` run: a serial executor on one long-lived thread of
/// its own, which every store names as its ``CredentialStore/callerExecutor``, so the store's synchronous calls (an fsync'd SQLite
/// transaction that may wait out a 5 s busy timeout, a Keychain call) block that thread, never
/// a thread of Swift concurrency's cooperative pool, which has only as many threads as the
/// machine has cores.
///
/// An actor that calls the store takes the store's executor as its own, so a reader sees where
/// its work runs (the SDK's `AuthClient`, `NotificationPreferencesClient`, `TestPushTracker` and
/// `TapRouter` do exactly this):
///
/// ```swift
/// actor Journal {
///   let store: any CredentialStore
///   private let executor: CredentialStoreExecutor
///   init(store: any CredentialStore) {
///     self.store = store
///     executor = store.callerExecutor
///   }
///   nonisolated var unownedExecutor: UnownedSerialExecutor {
///     executor.asUnownedSerialExecutor()
///   }
///   func save(_ entry: Entry) throws { try store.setValue(entry, forKey: key, in: .appPrivate) }
/// }
/// ```
///
/// The actor's guarantees are unchanged: the executor runs one job at a time, in order, so the
/// actor stays mutually exclusive, and synchronous code between two suspension points (say,
/// "store the rotated token" then "hand it out") still runs without anything in between. Only
/// the thread differs. Code that is not an actor (a `Sendable` value) uses ``run(_:)`` for the
/// same thread.
///
/// Why one shared thread that never ends, not one per actor:
/// - The actors share one store, and its calls take the store's lock one after another anyway:
///   a thread per actor would add threads, not throughput.
/// - A thread that ends runs its thread-local destructors (Foundation's, ICU's). A first version
///   ended a thread with each actor; `serverbee` then aborted with `double free or corruption`
///   on an ending thread while ICU's finaliser ran at exit, and the parallel test process saw
///   heap corruption. A thread that lives as long as the process never ends.
/// - The executor is never released, so no job can outlive it, and actors on it call each other
///   without a thread hop.
public final class CredentialStoreExecutor: SerialExecutor {
  /// The executor, started with the first job; its thread is named `ServerBee.Store`.
  public static let shared = CredentialStoreExecutor(name: "ServerBee.Store")

  private let queue: JobQueue

  private init(name: String) { queue = JobQueue(name: name) }

  /// Runs `job` on the executor's thread after every job enqueued before it.
  /// - Parameter job: The job.
  /// Runs the job on the executor's thread, after the jobs before it.
  public func enqueue(_ job: consuming ExecutorJob) {
    queue.submit(.job(UnownedJob(job), asUnownedSerialExecutor()))
  }

  /// Runs blocking work on the executor's thread, in order with its actor jobs, and returns its
  /// result; the calling task is suspended meanwhile, so no pool thread waits.
  /// - Parameter body: The work.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  ///
  /// ```swift
  /// let token = try await store.callerExecutor.run {
  ///   try store.value(String.self, forKey: key, in: .appPrivate)
  /// }
  /// ```
  public func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws
    -> Value
  {
    try await withCheckedThrowingContinuation { continuation in
      queue.submit(.work { continuation.resume(with: Result { try body() }) })
    }
  }

  /// Whether the calling code runs on the executor's thread.
  public var isCurrent: Bool { queue.isCurrent }
}

/// The jobs of the ``CredentialStoreExecutor`` and the one thread that runs them.
private final class JobQueue: @unchecked Sendable {
  // @unchecked: `items` and `thread` are only touched with `condition` locked.
  enum Item: Sendable {
    case job(UnownedJob, UnownedSerialExecutor)
    case work(@Sendable () -> Void)
  }

  private let name: String
  private let condition = NSCondition()
  private var items: [Item] = []
  private var thread: Thread?

  init(name: String) { self.name = name }

  var isCurrent: Bool {
    condition.lock()
    defer { condition.unlock() }
    return thread.map { $0 === Thread.current } ?? false
  }

  func submit(_ item: Item) {
    condition.lock()
    items.append(item)
    if thread == nil {
      let thread = Thread { [self] in loop() }
      self.thread = thread
      thread.start()
      // Named after `start()`: on Linux, `Thread.name` reaches the OS thread only once it
      // exists (at most 15 bytes). The thread waits for `condition`, held here, so it runs no
      // job unnamed.
      thread.name = name
    } else {
      condition.signal()
    }
    condition.unlock()
  }

  /// Runs the jobs, in order, for as long as the process lives.
  private func loop() -> Never {
    while true {
      condition.lock()
      while items.isEmpty { condition.wait() }
      let batch = items
      items.removeAll(keepingCapacity: true)
      condition.unlock()
      for item in batch {
        switch item {
        case .job(let job, let executor): job.runSynchronously(on: executor)
        case .work(let work): work()
        }
      }
    }
  }
}
