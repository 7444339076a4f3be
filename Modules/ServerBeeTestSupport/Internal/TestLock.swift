import Foundation

/// A value behind a lock, for fakes that are called synchronously from many tasks.
/// (`Synchronization.Mutex` needs macOS 15 / iOS 18; the package supports macOS 14 / iOS 17.)
final class TestLock<Value>: @unchecked Sendable {
  // Safety: `value` is only touched inside `withLock`, which holds `lock`.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
