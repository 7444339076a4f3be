import Foundation
import ServerBeeModels
import ServerBeeTransport

/// One long-lived thread that runs blocking jobs one after another: ``BlockingIO/run(wake:_:)``
/// for a keep-alive server connection, without starting a thread for every request it waits for.
///
/// The thread starts with the first job and ends after ``stop()`` (the owner's deinit). Like
/// `BlockingIO`, cancelling the awaiting task cancels the wake pipe the job polls.
package final class BlockingWorker: @unchecked Sendable {
  // @unchecked: `jobs`, `stopped` and `started` are only touched with `condition` locked.
  private let condition = NSCondition()
  private var jobs: [@Sendable () -> Void] = []
  private var stopped = false
  private var started = false

  /// Creates a worker; its thread starts with the first job.
  package init() {}

  /// Runs `body` on the worker thread and returns its result.
  package func run<Value>(
    wake: WakePipe, _ body: @escaping @Sendable () throws -> Value
  ) async throws -> BlockingIO.Transfer<Value> {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<BlockingIO.Transfer<Value>, any Error>) in
        submit {
          do {
            continuation.resume(returning: BlockingIO.Transfer(try body()))
          } catch {
            continuation.resume(throwing: error)
          }
        }
      }
    } onCancel: {
      wake.cancel()
    }
  }

  /// Lets the thread end once its queue is empty; later jobs run on a one-off thread.
  package func stop() {
    condition.lock()
    stopped = true
    condition.signal()
    condition.unlock()
  }

  private func submit(_ job: @escaping @Sendable () -> Void) {
    condition.lock()
    if stopped {
      condition.unlock()
      Thread { job() }.start()
      return
    }
    jobs.append(job)
    let start = !started
    started = true
    condition.signal()
    condition.unlock()
    guard start else { return }
    let thread = Thread { [self] in loop() }
    thread.name = "ServerBeeTransport.server"
    thread.start()
  }

  private func loop() {
    while true {
      condition.lock()
      while jobs.isEmpty && !stopped { condition.wait() }
      if jobs.isEmpty {
        condition.unlock()
        return
      }
      let job = jobs.removeFirst()
      condition.unlock()
      job()
    }
  }
}
