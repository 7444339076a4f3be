import AuthSession
import Foundation
import RealtimeStream
import ServerBeeModels
import ServerBeeTransport

/// `serverbee watch`: the live metrics table.
enum WatchCommand {
  /// Runs the command.
  static func run(_ context: CommandContext) async throws {
    let arguments = context.arguments
    let duration = try arguments.seconds("duration")
    let interval = try arguments.seconds("interval") ?? 1
    let mode = LiveTable.mode(for: context.console)
    let once = arguments.flags.contains("once")
    try await FleetFeed.with(context) { feed, server in
      _ = try await Spinner.run("Connecting to the live stream", console: context.console) {
        try await feed.firstSync()
      }
      var table = LiveTable(mode: mode, server: server)
      try await stream(
        feed, into: &table, console: context.console, interval: interval,
        duration: once ? 0 : duration)
    }
  }

  /// Writes a frame now and then every `interval` seconds until `duration` has passed (never
  /// without a duration), or until the task is cancelled.
  /// - Parameters:
  ///   - feed: The running stream.
  ///   - table: The table that draws the frames.
  ///   - console: Where frames go.
  ///   - interval: Seconds between frames.
  ///   - duration: Seconds to run; 0 writes one frame, `nil` runs until cancelled.
  /// - Throws: `CancellationError`, or an encoding error in JSON mode.
  static func stream(
    _ feed: FleetFeed, into table: inout LiveTable, console: Console, interval: Double,
    duration: Double?
  ) async throws {
    // Subscribed before the current status is read, so no change falls between the two.
    let events = await feed.stream.events()
    let connection = Locked(
      ConnectionTracker(status: await feed.stream.connectionStatus, at: Date()))
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for await event in events {
          guard case .connection(let status) = event else { continue }
          connection.withLock { $0.record(status, at: Date()) }
        }
      }
      defer { group.cancelAll() }
      func draw() async throws {
        console.write(
          try table.frame(
            await feed.stream.currentFleet, at: Date(), width: console.terminalColumns,
            connection: connection.withLock { $0 }))
      }
      let clock = ContinuousClock()
      let deadline = duration.map { clock.now + .milliseconds(Int64($0 * 1000)) }
      try await draw()
      if duration == 0 { return }
      while true {
        var next = clock.now + .milliseconds(Int64(interval * 1000))
        if let deadline { next = min(next, deadline) }
        try await clock.sleep(until: next)
        try await draw()
        if let deadline, clock.now >= deadline { return }
      }
    }
  }
}
