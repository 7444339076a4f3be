public import Foundation
import ServerBeeModels

/// The simulator's notion of "now": a base clock plus an offset the control API can advance.
///
/// Token expiry, pair-code and grant lifetimes, the login rate-limit window and WebSocket expiry
/// all read this clock, so tests move time forward instead of sleeping.
///
/// ```swift
/// let clock = SimulatorClock(start: Date(timeIntervalSince1970: 1_800_000_000))
/// clock.advance(by: 901)  // every access token issued at the start is now expired
/// ```
public final class SimulatorClock: Sendable {
  private let base: @Sendable () -> Date
  private let offsetSeconds = Locked<TimeInterval>(0)
  private let observers = Locked<[@Sendable () -> Void]>([])

  /// Creates a clock that follows the wall clock.
  public convenience init() { self.init(base: { Date() }) }

  /// Creates a clock that starts at a fixed instant and moves only when advanced.
  /// - Parameter start: The instant the clock shows until ``advance(by:)`` is called.
  public convenience init(start: Date) { self.init(base: { start }) }

  /// Creates a clock on top of any base.
  /// - Parameter base: The source of time before the offset is added.
  public init(base: @escaping @Sendable () -> Date) { self.base = base }

  /// The current simulated time.
  public var now: Date { base().addingTimeInterval(offset) }

  /// Moves the clock forward and wakes every waiter (WebSocket expiry checks).
  /// - Parameter seconds: How far to move; negative values are ignored.
  public func advance(by seconds: TimeInterval) {
    guard seconds > 0 else { return }
    offsetSeconds.withLock { $0 += seconds }
    for observer in observers.withLock({ $0 }) { observer() }
  }

  /// The total of every advance so far, in seconds.
  var offset: TimeInterval { offsetSeconds.withLock { $0 } }

  /// Raises the offset to `seconds` when it is smaller (restoring a persisted offset: a clock
  /// shared with the previous simulator on the same directory already has it, and must not
  /// get it twice), waking waiters like ``advance(by:)``.
  func restore(offset seconds: TimeInterval) {
    guard seconds.isFinite else { return }
    let current = offset
    if seconds > current { advance(by: seconds - current) }
  }

  func onAdvance(_ observer: @escaping @Sendable () -> Void) {
    observers.withLock { $0.append(observer) }
  }

  /// Nanoseconds since 1970 of ``now``.
  var nowNanos: Int64 { Self.nanos(now) }

  static func nanos(_ date: Date) -> Int64 {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    let fraction = date.timeIntervalSince1970 - seconds
    // Microsecond precision is what Date holds reliably; keep nanosecond storage for the format.
    return Int64(seconds) * 1_000_000_000 + Int64((fraction * 1_000_000).rounded()) * 1_000
  }
}
