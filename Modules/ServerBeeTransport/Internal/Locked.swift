import Foundation

/// A value behind a lock, for the few places where threads (not actors) share state.
///
/// `Synchronization.Mutex` needs iOS 18 / macOS 15 and the package supports iOS 17 / macOS 14,
/// so this wraps `NSLock` once. Safe to share: every access to `value` goes through the lock.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  /// Runs `body` with exclusive access to the value.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
