import Foundation

/// Runs blocking test I/O (pipes, processes, raw sockets) on its own thread, so a test never
/// parks a thread of Swift concurrency's small cooperative pool while the code under test needs it.
package func offPool<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws
  -> Value
{
  try await withCheckedThrowingContinuation { continuation in
    Thread {
      continuation.resume(with: Result { try body() })
    }.start()
  }
}
