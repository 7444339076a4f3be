import Foundation

/// A serial executor with one thread of its own, for actors whose methods call a
/// ``CredentialStore``: the store's synchronous calls (an fsync'd SQLite transaction that may
/// wait out a 5 s busy timeout, a Keychain call) then block that thread, never a thread of Swift
/// concurrency's cooperative pool, which has only as many threads as the machine has cores.
///
/// An actor adopts it as its executor and keeps it alive:
///
/// ```swift
/// actor Journal {
///   private let executor = BlockingSerialExecutor(name: "ServerBee.Journal")
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
/// the thread differs.
///
/// The thread starts with the first job and ends once the executor is released (its actor's
/// deinit) and no job is left. Code that is not an actor (a `Sendable` value) uses
/// ``run(_:)`` for the same thread.
package final class BlockingSerialExecutor: SerialExecutor {
  private let queue: JobQueue

  /// Creates an executor; its thread starts with the first job.
  /// - Parameter name: The thread's name, shown by debuggers and `ps -T`; at most 15 bytes,
  ///   or Linux keeps the name of the thread that started it.
  package init(name: String) { queue = JobQueue(name: name) }

  deinit { queue.stop() }

  /// Runs `job` on the executor's thread after every job enqueued before it.
  /// - Parameter job: The job.
  package func enqueue(_ job: consuming ExecutorJob) {
    queue.submit(.job(UnownedJob(job), asUnownedSerialExecutor()))
  }

  /// Runs blocking work on the executor's thread, in order with its actor jobs, and returns its
  /// result; the calling task is suspended meanwhile, so no pool thread waits.
  /// - Parameter body: The work.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  package func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws
    -> Value
  {
    try await withCheckedThrowingContinuation { continuation in
      queue.submit(.work { continuation.resume(with: Result { try body() }) })
    }
  }

  /// Whether the calling code runs on this executor's thread.
  package var isCurrent: Bool { queue.isCurrent }
}

/// The jobs of one ``BlockingSerialExecutor`` and the thread that runs them.
///
/// The thread holds this queue, never the executor, so releasing the executor (and its actor)
/// is what ends the thread.
private final class JobQueue: @unchecked Sendable {
  // @unchecked: `items`, `thread` and `stopped` are only touched with `condition` locked.
  enum Item: Sendable {
    case job(UnownedJob, UnownedSerialExecutor)
    case work(@Sendable () -> Void)
  }

  private let name: String
  private let condition = NSCondition()
  private var items: [Item] = []
  private var thread: Thread?
  private var stopped = false

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
      // The first job, or one after the thread ended (possible only for `run` work that
      // outlives its executor's owner): start a thread that drains the queue.
      let thread = Thread { [self] in loop() }
      self.thread = thread
      thread.start()
      // Named after `start()`: on Linux, `Thread.name` reaches the OS thread only once it
      // exists. The thread waits for `condition`, held here, so it runs no job unnamed.
      thread.name = name
    } else {
      condition.signal()
    }
    condition.unlock()
  }

  func stop() {
    condition.lock()
    stopped = true
    condition.signal()
    condition.unlock()
  }

  private func loop() {
    while true {
      condition.lock()
      while items.isEmpty && !stopped { condition.wait() }
      if items.isEmpty {
        thread = nil
        condition.unlock()
        return
      }
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
