public import Foundation
public import ServerBeeKit

/// The fleet board's text: for each snapshot of the live fleet, a summary line and the busiest
/// servers (so a fleet of a thousand still prints a few lines), and nothing when what those
/// lines show did not change.
///
/// ```swift
/// var board = FleetBoard(top: 3)
/// for await fleet in await client.watchFleet().stream.snapshots() where fleet.isSynchronized {
///   board.update(fleet, at: Date())?.forEach(say)
/// }
/// ```
public struct FleetBoard: Sendable {
  /// How many servers to list, busiest CPU first.
  public var top: Int
  private var shown: [String] = []

  /// A board that has shown nothing yet.
  /// - Parameter top: How many servers to list.
  public init(top: Int = 3) { self.top = top }

  /// The lines for a new snapshot, or `nil` when they would repeat the last ones.
  /// - Parameters:
  ///   - fleet: The fleet.
  ///   - date: When it was seen (printed as the UTC time of day).
  /// - Returns: `1 + min(top, servers)` lines, or `nil`.
  public mutating func update(_ fleet: FleetState, at date: Date) -> [String]? {
    let lines = Self.lines(for: fleet, top: top)
    guard lines != shown else { return nil }
    shown = lines
    return ["\(Self.clock(date))  \(lines[0])"] + lines.dropFirst()
  }

  /// A summary line (servers, online, average CPU), then the `top` busiest servers.
  private static func lines(for fleet: FleetState, top: Int) -> [String] {
    let servers = Array(fleet.servers)
    let online = servers.filter { $0.online == true }
    let cpus = online.compactMap(\.cpu)
    let average = cpus.isEmpty ? "-" : percent(cpus.reduce(0, +) / Double(cpus.count))
    let busiest = servers.sorted { ($0.cpu ?? -1) > ($1.cpu ?? -1) }.prefix(max(0, top))
    return ["\(servers.count) servers, \(online.count) online, average CPU \(average)"]
      + busiest.map { server in
        let state = server.online == true ? "online " : "offline"
        let memory =
          if let used = server.memUsed, let total = server.memTotal, total > 0 {
            percent(Double(used) * 100 / Double(total))
          } else { "-" }
        return "  \(server.name)  \(state)  CPU \(server.cpu.map(percent) ?? "-")"
          + "  memory \(memory)"
      }
  }

  private static func percent(_ value: Double) -> String {
    String(format: "%.1f%%", value)
  }

  /// `HH:MM:SSZ` without a formatter, so the output is the same under every locale.
  private static func clock(_ date: Date) -> String {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down)) % 86_400
    return String(format: "%02d:%02d:%02dZ", seconds / 3600, seconds / 60 % 60, seconds % 60)
  }
}
