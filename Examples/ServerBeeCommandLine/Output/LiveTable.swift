import Foundation
import RealtimeStream
import ServerBeeModels

/// Draws fleet snapshots: in place with ANSI codes on a terminal, appended otherwise, or as one
/// JSON object per line.
struct LiveTable {
  /// How snapshots are written.
  enum Mode: Sendable {
    /// Redraw in place (stdout is a terminal).
    case redraw
    /// Append each snapshot, separated by a blank line.
    case append
    /// One JSON object per line: `{"time":…,"servers":[…]}`.
    case json
  }

  /// The mode.
  let mode: Mode
  /// The server shown in the heading.
  let server: ServerURL
  private var frames = InPlaceFrames()

  /// Creates a table for a server.
  init(mode: Mode, server: ServerURL) {
    self.mode = mode
    self.server = server
  }

  /// The mode for a console.
  static func mode(for console: Console) -> Mode {
    console.json ? .json : console.stdoutIsTerminal ? .redraw : .append
  }

  /// The text to write for one snapshot taken at `date`.
  /// - Parameters:
  ///   - fleet: The snapshot.
  ///   - date: When it was taken.
  ///   - width: In redraw mode, the terminal width: longer lines are cut so none wraps (a wrapped
  ///     line would break moving the cursor back over the frame).
  ///   - connection: The stream's connection, shown in the heading (and as `connection` in JSON).
  /// - Returns: The text, ending with a newline.
  /// - Throws: An encoding error in JSON mode.
  mutating func frame(
    _ fleet: FleetState, at date: Date, width: Int? = nil, connection: ConnectionTracker? = nil
  ) throws -> String {
    let rows = ServerRow.rows(of: fleet)
    switch mode {
    case .json:
      let snapshot = Snapshot(
        time: Formatting.isoTime(date), server: server.string, connection: connection?.state,
        offlineSince: connection?.offlineSince.map(Formatting.isoTime), servers: rows)
      return String(decoding: try WireJSON.encode(snapshot), as: UTF8.self) + "\n"
    case .append, .redraw:
      let online = rows.filter(\.online).count
      let state = connection.map { " · " + $0.text(at: date) } ?? ""
      let heading =
        "\(server)\(state) · \(rows.count) servers, \(online) online · \(Formatting.time(date))"
      let text = heading + "\n" + Tables.servers(rows)
      guard mode == .redraw else { return text + "\n\n" }
      return frames.frame(
        text.split(separator: "\n", omittingEmptySubsequences: false)
          .map { line in width.map { String(line.prefix(max($0 - 1, 1))) } ?? String(line) })
    }
  }

  /// One `--json` snapshot.
  struct Snapshot: Codable, Sendable {
    var time: String
    var server: String
    /// `connecting`, `live`, `reconnecting` or `offline`.
    var connection: String?
    /// While not live: when the stream was lost.
    var offlineSince: String?
    var servers: [ServerRow]

    enum CodingKeys: String, CodingKey {
      case time, server, connection
      case offlineSince = "offline_since"
      case servers
    }

    /// Without a connection (a one-off frame) the connection keys are left out; while live,
    /// `offline_since` is `null`.
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(time, forKey: .time)
      try container.encode(server, forKey: .server)
      if let connection {
        try container.encode(connection, forKey: .connection)
        try container.encode(offlineSince, forKey: .offlineSince)
      }
      try container.encode(servers, forKey: .servers)
    }
  }
}
