import Foundation
import RealtimeStream
import Testing

@testable import ServerBeeCommandLine

@Suite struct ConnectionTrackerTests {
  private static let start = Date(timeIntervalSince1970: 1_800_000_000)  // 08:00:00Z

  private static func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }

  /// Status changes (seconds after the start), the time the frame is drawn, its text and word.
  @Test(
    arguments: [
      ([], 0.0, "connecting", "connecting"),
      ([(0.5, MetricsStreamClient.ConnectionStatus.connected)], 1, "live", "live"),
      (
        [(0.5, .connected), (62, .waitingToReconnect(seconds: 4))], 63,
        "reconnecting in 3 s · offline since 08:01:02Z", "reconnecting"
      ),
      (
        [(0.5, .connected), (62, .waitingToReconnect(seconds: 4)), (66, .connecting)], 66.5,
        "reconnecting now · offline since 08:01:02Z", "reconnecting"
      ),
      (
        [
          (0.5, .connected), (62, .waitingToReconnect(seconds: 1)), (63, .connecting),
          (63.5, .waitingToReconnect(seconds: 2)),
        ], 70,
        "reconnecting in 0 s · offline since 08:01:02Z", "reconnecting"
      ),
      (
        [(0.5, .connected), (62, .connecting)], 62, "reconnecting now · offline since 08:01:02Z",
        "reconnecting"
      ),
      (
        [(0.5, .connected), (62, .waitingToReconnect(seconds: 1)), (64, .connected)], 65, "live",
        "live"
      ),
      ([(0.5, .connected), (62, .stopped)], 70, "offline since 08:01:02Z", "offline"),
    ] as [([(Double, MetricsStreamClient.ConnectionStatus)], Double, String, String)])
  func framesNameTheConnection(
    changes: [(Double, MetricsStreamClient.ConnectionStatus)], drawnAt: Double, text: String,
    word: String
  ) {
    var tracker = ConnectionTracker(status: .connecting, at: Self.start)
    for (seconds, status) in changes { tracker.record(status, at: Self.at(seconds)) }
    #expect(tracker.text(at: Self.at(drawnAt)) == text)
    #expect(tracker.state == word)
  }
}
