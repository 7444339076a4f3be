import Foundation
import ServerBeeModels
import ServerBeeServerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What one connection costs the process, and the connection cap that fits the descriptor
/// limit.
///
/// Measured with 100 subscribed clients (`scripts/simulator-load.sh --only ws`, `/proc`):
/// a WebSocket holds 5 descriptors (its socket, the HTTP connection's wake pipe and the
/// WebSocket's own wake pipe, 2 each) and 1 thread (its I/O thread; the HTTP connection's
/// worker thread ends at the upgrade). A keep-alive HTTP connection holds 3 descriptors and,
/// once it has had to wait for a request, 1 thread.
///
/// Under the common soft limit of 1,024 descriptors the documented cap of 1,024 connections
/// could not be reached: past about 200 WebSockets, `accept`, `pipe` and the upgrade failed
/// silently (clients got a `101` and then nothing). Now the executable raises the soft limit to
/// the hard one (``Simulator/prepareProcess()``), the cap is
/// `(limit - reserve) / 5` when that is lower than the configured one, and a connection that
/// still finds no descriptor is answered `503` (one line in the log).
///
/// Reading and raising the limit is ServerKit's `DescriptorBudget`, which the relay uses too.
enum ConnectionBudget {
  /// Descriptors held by one WebSocket connection.
  static let descriptorsPerConnection = 5
  /// Threads held by one WebSocket connection.
  static let threadsPerConnection = 1
  /// Descriptors kept for everything that is not a connection: stdio, the database, its WAL
  /// and shared memory, the data-directory lock, the listener and its wake pipe, the outbox
  /// workers' relay connections, and one-off blocking threads.
  static let reserve = 64

  /// The connection cap: `configured`, or fewer when the descriptor limit cannot hold that many.
  static func connectionCap(configured: Int, descriptorLimit: Int) -> Int {
    max(1, min(configured, (descriptorLimit - reserve) / descriptorsPerConnection))
  }

  /// The soft `RLIMIT_NOFILE` in force, or `Int.max` when unlimited or unknown (ServerKit's
  /// `DescriptorBudget`, shared with the relay).
  static var descriptorLimit: Int {
    guard let soft = DescriptorBudget.current()?.soft, soft != UInt64(rlim_t.max) else {
      return .max
    }
    return Int(clamping: soft)
  }

  /// Raises the soft `RLIMIT_NOFILE` to the hard limit; returns the soft limit after.
  @discardableResult
  static func raiseDescriptorLimit() -> Int {
    DescriptorBudget.raiseSoftLimitToHardLimit()
    return descriptorLimit
  }

  /// Whether `count` more descriptors can be opened now: opens and closes them. Checked before
  /// a WebSocket upgrade, because once the `101` is written a failure could only drop the
  /// connection.
  static func canOpen(_ count: Int) -> Bool {
    var opened: [Int32] = []
    defer { for descriptor in opened { close(descriptor) } }
    while opened.count < count {
      var pair: [Int32] = [-1, -1]
      guard pipe(&pair) == 0 else { return false }
      opened += pair
    }
    return true
  }

  /// Caps glibc's malloc arenas (`mallopt(M_ARENA_MAX, count)`); `false` where there is no
  /// such call. Looked up at run time: Glibc's Swift module leaves `malloc.h` out.
  static func limitMallocArenas(to count: Int32) -> Bool {
    #if canImport(Glibc)
      typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
      let arenaMaximum: Int32 = -8  // M_ARENA_MAX in <malloc.h>
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else {
        return false
      }
      return unsafeBitCast(symbol, to: Mallopt.self)(arenaMaximum, count) == 1
    #else
      return false
    #endif
  }

}

/// Logs "out of descriptors" once per episode: the first refusal, then nothing until a minute
/// has passed (a refused client retries; one line per refusal would flood the log).
final class RefusalLog: Sendable {
  private let last = Locked<ContinuousClock.Instant?>(nil)
  private let log: (@Sendable (String) -> Void)?

  init(log: (@Sendable (String) -> Void)?) { self.log = log }

  func refused(_ line: @autoclosure () -> String) {
    let now = ContinuousClock.now
    let due = last.withLock { last -> Bool in
      if let previous = last, now - previous < .seconds(60) { return false }
      last = now
      return true
    }
    if due { log?(line()) }
  }
}
