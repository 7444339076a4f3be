#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The one lock under ``Locked`` and ``ValueBroadcaster``: `os_unfair_lock` on Apple platforms,
/// a `pthread_mutex_t` elsewhere.
///
/// Not `NSLock`, because that is the only thing ServerBeeModels would need Foundation (rather
/// than FoundationEssentials) for on Linux; not `Synchronization.Mutex`, which needs iOS 18 /
/// macOS 15. The lock lives in its own allocation because neither C lock may move in memory.
final class PlatformLock: @unchecked Sendable {
  // Safety: the pointee is only touched through the C lock functions, which are thread-safe;
  // the allocation lives as long as the object.
  #if canImport(Darwin)
    private let handle: UnsafeMutablePointer<os_unfair_lock>
  #else
    private let handle: UnsafeMutablePointer<pthread_mutex_t>
  #endif

  init() {
    handle = .allocate(capacity: 1)
    #if canImport(Darwin)
      handle.initialize(to: os_unfair_lock())
    #else
      handle.initialize(to: pthread_mutex_t())
      let result = pthread_mutex_init(handle, nil)
      precondition(result == 0, "pthread_mutex_init failed with \(result)")
    #endif
  }

  deinit {
    #if !canImport(Darwin)
      pthread_mutex_destroy(handle)
    #endif
    handle.deinitialize(count: 1)
    handle.deallocate()
  }

  /// Runs `body` with the lock held.
  func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure)
    -> Result
  {
    #if canImport(Darwin)
      os_unfair_lock_lock(handle)
      defer { os_unfair_lock_unlock(handle) }
    #else
      pthread_mutex_lock(handle)
      defer { pthread_mutex_unlock(handle) }
    #endif
    return try body()
  }
}
