internal import Foundation

/// A value guarded by a lock, for classes that need synchronous shared state.
///
/// `Synchronization.Mutex` needs iOS 18 / macOS 15 and the package supports iOS 17 / macOS 14,
/// so the one lock wrapper of this module sits on `NSLock`.
final class Locked<State>: @unchecked Sendable {
  // Safe to share: `state` is only reached through `withLock`, which holds `lock` for the whole
  // access, and callers never let a reference to it escape the closure.
  private let lock = NSLock()
  private var state: State

  init(_ state: State) { self.state = state }

  func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result)
    throws(Failure) -> Result
  {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }
}
