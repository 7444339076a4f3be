import Foundation
import RealtimeStream

/// What `watch` says about the live stream's connection: `connecting`, `live`,
/// `reconnecting in 3 s · offline since 12:01:02Z` or `offline since 12:01:02Z`.
///
/// It records each status change with its time, so a frame drawn later can count down to the
/// next attempt and name when the data stopped being live.
///
/// ```swift
/// var tracker = ConnectionTracker(status: .connected, at: Date())
/// tracker.record(.waitingToReconnect(seconds: 4), at: lostAt)
/// tracker.text(at: lostAt + 1)  // "reconnecting in 3 s · offline since 12:01:02Z"
/// ```
struct ConnectionTracker: Sendable, Hashable {
  /// The latest status.
  private(set) var status: MetricsStreamClient.ConnectionStatus
  /// When it was recorded.
  private(set) var changedAt: Date
  /// When the connection was last lost, while it is not live again.
  private(set) var offlineSince: Date?

  /// Starts with the status at a time.
  init(status: MetricsStreamClient.ConnectionStatus, at date: Date) {
    self.status = status
    changedAt = date
    if case .stopped = status { offlineSince = date }
  }

  /// Records a status change.
  mutating func record(_ new: MetricsStreamClient.ConnectionStatus, at date: Date) {
    switch new {
    case .connected: offlineSince = nil
    case .idle: break
    // A first attempt is not "offline"; a new attempt after losing the stream is.
    case .connecting: if status == .connected { offlineSince = date }
    case .waitingToReconnect, .refreshingToken, .stopped:
      if offlineSince == nil { offlineSince = date }
    }
    status = new
    changedAt = date
  }

  /// One word for `--json`: `connecting`, `live`, `reconnecting` or `offline`.
  var state: String {
    switch status {
    case .connected: return "live"
    case .idle, .connecting: return offlineSince == nil ? "connecting" : "reconnecting"
    case .waitingToReconnect, .refreshingToken: return "reconnecting"
    case .stopped: return "offline"
    }
  }

  /// The text for people at `now`.
  func text(at now: Date) -> String {
    let since = offlineSince.map { " · offline since " + Self.clock($0) } ?? ""
    switch status {
    case .connected: return "live"
    case .idle, .connecting: return offlineSince == nil ? "connecting" : "reconnecting now" + since
    case .waitingToReconnect(let seconds):
      let remaining = changedAt.addingTimeInterval(seconds).timeIntervalSince(now)
      return "reconnecting in \(max(0, Int(remaining.rounded(.up)))) s" + since
    case .refreshingToken: return "refreshing the session" + since
    case .stopped: return "offline since " + Self.clock(offlineSince ?? changedAt)
    }
  }

  /// `HH:MM:SSZ` (UTC, as every time the command line prints).
  static func clock(_ date: Date) -> String {
    String(Formatting.time(date).split(separator: " ").last ?? "")
  }
}
