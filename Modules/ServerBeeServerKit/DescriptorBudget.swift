#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's budget of open file descriptors (`RLIMIT_NOFILE`): every connection of a
/// server costs three (its socket and a wake pipe), so a relay with thousands of device streams
/// needs more than the usual soft limit of 1024.
///
/// ```swift
/// let limit = DescriptorBudget.raiseSoftLimitToHardLimit()  // at start, before serving
/// log("open files: up to \(limit?.soft ?? 0)")
/// ```
///
/// When the budget runs out anyway, ``HTTPServer`` answers new connections 503 (its
/// ``HTTPServer/Configuration/rejection`` for 503) and closes them, using a descriptor it keeps
/// in reserve, and reports it once through
/// ``HTTPServer/Configuration/onDescriptorsExhausted``.
package enum DescriptorBudget {
  /// The soft and hard limits.
  package struct Limits: Sendable, Hashable {
    /// What the process may open now.
    package var soft: UInt64
    /// What the soft limit may be raised to without privileges.
    package var hard: UInt64
  }

  /// The current limits, or `nil` when they cannot be read.
  package static func current() -> Limits? {
    var limit = rlimit()
    guard getrlimit(resourceNumber, &limit) == 0 else { return nil }
    return Limits(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
  }

  /// Raises the soft limit to the hard limit (on Darwin at most `OPEN_MAX`, which is what
  /// `setrlimit` accepts there); a soft limit already there is left alone.
  /// - Returns: The limits afterwards, or `nil` when they cannot be read or set.
  @discardableResult
  package static func raiseSoftLimitToHardLimit() -> Limits? {
    var limit = rlimit()
    guard getrlimit(resourceNumber, &limit) == 0 else { return nil }
    var target = limit.rlim_max
    #if canImport(Darwin)
      target = min(target, rlim_t(OPEN_MAX))
    #endif
    if limit.rlim_cur < target {
      limit.rlim_cur = target
      guard setrlimit(resourceNumber, &limit) == 0 else { return current() }
    }
    return current()
  }

  #if canImport(Glibc)
    private static let resourceNumber = __rlimit_resource_t(UInt32(RLIMIT_NOFILE.rawValue))
  #else
    private static let resourceNumber = RLIMIT_NOFILE
  #endif
}
