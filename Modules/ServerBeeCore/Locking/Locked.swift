/// A value behind a lock: the package's one wrapper for synchronous shared state.
///
/// `Synchronization.Mutex` needs iOS 18 / macOS 15 and the package supports iOS 17 / macOS 14, so
/// every module that needs a lock uses this (package-visible) type instead of wrapping its own.
///
/// ```swift
/// let counter = Locked(0)
/// counter.withLock { $0 += 1 }
/// ```
package final class Locked<Value>: @unchecked Sendable {
  // Safety: `value` is only read or written inside `withLock`, which holds `lock`.
  private let lock = PlatformLock()
  private var value: Value

  /// Wraps an initial value.
  /// - Parameter value: The value.
  package init(_ value: Value) { self.value = value }

  /// Runs `body` with exclusive access to the value.
  /// - Parameter body: Reads or changes the value; it must not call back into this lock.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result)
    throws(Failure) -> Result
  {
    try lock.withLock { () throws(Failure) -> Result in try body(&value) }
  }
}
