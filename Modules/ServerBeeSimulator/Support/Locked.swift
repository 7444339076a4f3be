import Foundation

/// A value guarded by a lock, for synchronous shared state.
///
/// `Synchronization.Mutex` needs macOS 15, and the package supports macOS 14, so this wraps an
/// `NSLock` once.
final class Locked<Value>: @unchecked Sendable {
  // Safety: `value` is only touched inside `withLock`, which holds `lock` for the whole access.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
