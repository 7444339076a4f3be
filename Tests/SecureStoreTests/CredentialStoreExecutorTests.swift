import Foundation
import SecureStore
import ServerBeeModels
import Testing

/// An actor on the store thread, as the store's callers are.
private actor BlockingActor {
  private var entered = 0
  private var order: [Int] = []

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    CredentialStoreExecutor.shared.asUnownedSerialExecutor()
  }

  /// Records the call, and whether it ran on the executor's thread with nothing else inside.
  func record(_ index: Int) -> Bool {
    entered += 1
    defer { entered -= 1 }
    order.append(index)
    return CredentialStoreExecutor.shared.isCurrent && entered == 1
  }

  var recorded: [Int] { order }

  /// Blocks the store thread until the latch opens (or 30 s pass); `true` when it opened.
  func block(on latch: Latch) -> Bool { latch.arriveAndWait(timeout: 120) }

  /// Work on the executor's thread from outside the actor, between its jobs.
  func runOutside() async throws -> Bool {
    try await CredentialStoreExecutor.shared.run { CredentialStoreExecutor.shared.isCurrent }
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

@Suite(.timeLimit(.minutes(5))) struct CredentialStoreExecutorTests {
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

  /// While an actor blocks the store thread, many tasks on the cooperative pool still run;
  /// the last of them releases it.
  @Test func aBlockedStoreThreadLeavesTheCooperativePoolFree() async {
    let actor = BlockingActor()
    let latch = Latch()
    let released = await withTaskGroup(of: Bool.self) { group in
      group.addTask { await actor.block(on: latch) }
      group.addTask {
        await latch.waitForArrivals(1)
        // More tasks than the pool has threads, each with a suspension point: they all finish
        // while the store thread is blocked.
        let count = ProcessInfo.processInfo.activeProcessorCount * 8
        let finished = await withTaskGroup(of: Int.self) { tasks in
          for index in 0..<count {
            tasks.addTask {
              await Task.yield()
              return index
            }
          }
          return await tasks.reduce(0) { finished, _ in finished + 1 }
        }
        latch.open()
        return finished == count
      }
      return await group.reduce(true) { $0 && $1 }
    }
    #expect(released)
    #expect(await actor.record(0), "the store thread runs jobs again")
  }

  /// Actors share the one long-lived thread: it is there while they run and after they are
  /// gone (a thread that ends runs thread-local destructors; this one never does).
  @Test func everyActorRunsOnTheOneStoreThreadWhichOutlivesThem() async throws {
    var first: BlockingActor? = BlockingActor()
    let second = BlockingActor()
    #expect(await first?.record(0) == true)
    #expect(await second.record(0))
    #expect(Self.threadNames().contains("ServerBee.Store"))
    first = nil
    #expect(await second.record(1))
    #expect(Self.threadNames().contains("ServerBee.Store"))
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
