import Foundation
import SecureStore
import ServerBeeModels
import ServerBeeTestSupport
import Testing

/// An actor on its own ``BlockingSerialExecutor``, as the store's callers are.
private actor BlockingActor {
  private let executor: BlockingSerialExecutor
  private var entered = 0
  private var order: [Int] = []

  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  init(name: String = "sb.test") { executor = BlockingSerialExecutor(name: name) }

  /// Records the call, and whether it ran on the executor's thread with nothing else inside.
  func record(_ index: Int) -> Bool {
    entered += 1
    defer { entered -= 1 }
    order.append(index)
    return executor.isCurrent && entered == 1
  }

  var recorded: [Int] { order }

  /// Blocks this actor's thread until the latch opens (or 30 s pass); `true` when it opened.
  func block(on latch: Latch) -> Bool { latch.arriveAndWait(timeout: 30) }

  /// Work on the executor's thread from outside the actor, between its jobs.
  func runOutside() async throws -> Bool {
    let executor = executor
    return try await executor.run { executor.isCurrent }
  }
}

/// Threads arrive and block; a task awaits the arrivals and opens the latch.
private final class Latch: Sendable {
  private struct State {
    var arrivals = 0
    var isOpen = false
    var waiters: [(Int, CheckedContinuation<Void, Never>)] = []
  }
  private let state = Locked(State())
  private let condition = NSCondition()

  func arriveAndWait(timeout: TimeInterval) -> Bool {
    let ready = state.withLock { state in
      state.arrivals += 1
      let ready = state.waiters.filter { $0.0 <= state.arrivals }
      state.waiters.removeAll { $0.0 <= state.arrivals }
      return ready
    }
    for (_, waiter) in ready { waiter.resume() }
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while !state.withLock({ $0.isOpen }) {
      guard condition.wait(until: deadline) else { return state.withLock { $0.isOpen } }
    }
    return true
  }

  func waitForArrivals(_ count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let ready = state.withLock { state -> Bool in
        if state.arrivals >= count { return true }
        state.waiters.append((count, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  func open() {
    condition.lock()
    state.withLock { $0.isOpen = true }
    condition.broadcast()
    condition.unlock()
  }
}

@Suite(.timeLimit(.minutes(2))) struct BlockingSerialExecutorTests {
  @Test func anActorOnTheExecutorRunsOnItsThreadOneJobAtATimeInOrder() async throws {
    let actor = BlockingActor()
    var inOrder = true
    for index in 0..<50 { inOrder = await actor.record(index) && inOrder }
    #expect(inOrder)
    #expect(await actor.recorded == Array(0..<50))
    let concurrent = await withTaskGroup(of: Bool.self) { group in
      for index in 0..<200 { group.addTask { await actor.record(index) } }
      return await group.reduce(true) { $0 && $1 }
    }
    #expect(concurrent, "every call ran on the executor's thread, alone")
    #expect(try await actor.runOutside(), "run(_:) uses the same thread")
  }

  /// More actors block their threads than the pool has threads, and a plain task (on the pool)
  /// still runs to release them: blocking on the executor never holds the cooperative pool.
  @Test func blockedActorsLeaveTheCooperativePoolFree() async {
    let count = ProcessInfo.processInfo.activeProcessorCount + 2
    let actors = (0..<count).map { _ in BlockingActor() }
    let latch = Latch()
    let released = await withTaskGroup(of: Bool.self) { group in
      for actor in actors { group.addTask { await actor.block(on: latch) } }
      group.addTask {
        await latch.waitForArrivals(count)
        latch.open()
        return true
      }
      return await group.reduce(true) { $0 && $1 }
    }
    #expect(released)
  }

  /// The executor's thread ends once its actor is released: nothing is left running.
  @Test func theThreadEndsWhenItsActorIsReleased() async throws {
    let name = "sb.x." + String(UInt32.random(in: 0...UInt32.max), radix: 16)
    var actor: BlockingActor? = BlockingActor(name: name)
    #expect(await actor?.record(0) == true)
    #expect(Self.threadNames().contains(name), "the thread runs while the actor lives")
    actor = nil
    // The thread is a real one, so its end is polled for, with a generous deadline.
    let deadline = ContinuousClock.now + .seconds(30)
    while Self.threadNames().contains(name), ContinuousClock.now < deadline {
      await Task.yield()
    }
    #expect(!Self.threadNames().contains(name), "the thread ended with its actor")
  }

  /// The names of this process's threads (`/proc/self/task/*/comm`).
  private static func threadNames() -> Set<String> {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return Set(
      tasks.compactMap { task in
        (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
          .trimmingCharacters(in: .whitespacesAndNewlines)
      })
  }
}
