import Foundation
public import ServerBeeKit

/// What `api-key-report` prints: the servers of a ServerBee server and its firing alerts, read
/// with any ``ServerBeeAPIClient`` (an API key's in the recipe, a stub's in a test).
///
/// ```swift
/// let api = ServerBeeAPIClient(server: server, apiKey: key, transport: http)
/// for line in try await FleetReport.load(from: api).lines { say(line) }
/// ```
public struct FleetReport: Sendable, Hashable {
  /// The server the report is about.
  public var server: ServerURL
  /// Its servers, by name.
  public var servers: [ServerResponse]
  /// The alert events read, newest first.
  public var events: [AlertEvent]

  /// Reads the servers and the last `alertLimit` alert events.
  /// - Parameters:
  ///   - api: The REST client.
  ///   - alertLimit: How many recent alert events to read.
  /// - Returns: The report.
  /// - Throws: `ServerBeeAPIError`.
  public static func load(from api: ServerBeeAPIClient, alertLimit: Int = 50) async throws
    -> FleetReport
  {
    // One after the other: the first failure is the one reported, and a scripted stub in a
    // test sees the requests in a fixed order.
    let servers = try await api.servers().sorted { $0.name < $1.name }
    let events = try await api.alertEvents(limit: alertLimit)
    return FleetReport(server: api.server, servers: servers, events: events)
  }

  /// The events still firing.
  public var firing: [AlertEvent] { events.filter { $0.status == .firing } }

  /// The report as text: a line per server and per firing alert.
  public var lines: [String] {
    var lines = ["\(servers.count) servers on \(server)"]
    for server in servers {
      let details = [
        server.os, server.region, server.cpuCores.map { "\($0) cores" },
        server.memTotal.map { String(format: "%.1f GiB", Double($0) / 1_073_741_824) },
      ].compactMap { $0 }
      lines.append("  \(server.name)  \(details.joined(separator: ", "))")
    }
    lines.append("\(firing.count) alerts firing (of the last \(events.count) events)")
    for event in firing {
      lines.append(
        "  \(event.ruleName) on \(event.serverName) since \(event.eventAt), \(event.count) time(s)")
    }
    return lines
  }
}
