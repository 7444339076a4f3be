import Foundation
import ServerBeeTestHarness
import Testing

/// `serverbee server` and `serverbee insights`, run as the built executable against the built
/// simulator with a day of made-up history (`--history 1`): the screen's sections, its
/// width, JSON and SVG, `--watch` with a duration, and the one-line errors.
@Suite(.timeLimit(.minutes(5))) struct CommandLineScreenTests {
  @Test func aServerScreenDrawsEverySectionAtTheWidthAskedFor() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 2,
      extra: ["--history", "1"])
    defer { simulator.terminate() }
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", "admin", "--password", "admin-password"],
      home: home)
    #expect(login.status == 0, "\(login.stderr)")
    let edit = try await serverbee(
      [
        "servers", "edit", "server-1", "--price", "12", "--billing-cycle", "monthly",
        "--traffic-limit", "1099511627776", "--traffic-limit-type", "sum",
      ], home: home)
    #expect(edit.status == 0, "\(edit.stderr)")

    for width in [80, 160] {
      let screen = try await serverbee(
        ["server", "server-1", "--range", "24h", "--width", "\(width)"], home: home)
      #expect(screen.status == 0, "\(screen.stderr)")
      let lines = screen.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.first?.hasPrefix("● server-1  online") == true, "\(screen.stdout)")
      #expect(lines.allSatisfy { $0.count <= width }, "a line is wider than \(width)")
      for part in [
        "CPU  last ", "Memory  last ", "Disk  last ", "Network  ↓ in, peak ",
        "Traffic  cycle ", "(counting sum)", "Uptime  the last \(min(90, width - 9)) day(s): ",
      ] {
        #expect(screen.stdout.contains(part), "no '\(part)' in\n\(screen.stdout)")
      }
      // A day of history draws a line across the whole chart: dots in the first and the last
      // columns of the plot.
      let plotted = lines.filter { $0.contains("┤") || $0.contains("│") }
        .map { $0.unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }.count }
      #expect(plotted.reduce(0, +) > width, "\(screen.stdout)")
      #expect(!screen.stdout.contains("\u{1B}"), "colour without a terminal")
      // Two by two from 140 columns: CPU and Memory share a line.
      #expect(
        lines.contains { $0.hasPrefix("CPU  last ") && $0.contains("Memory  last ") }
          == (width >= 140))
    }

    let json = try await serverbee(["server", "server-1", "--range", "6h", "--json"], home: home)
    #expect(json.status == 0, "\(json.stderr)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(
      Array(document.keys).sorted() == [
        "containers", "containers_error", "from", "live", "monitors", "monitors_error",
        "records", "server", "to", "traffic", "traffic_error", "uptime", "uptime_error",
      ])
    // server-1 has no Docker: no section, no error.
    #expect(document["containers"] is NSNull && document["containers_error"] is NSNull)
    #expect(((document["records"] as? [Any])?.count ?? 0) >= 6 * 60 - 1)  // a row a minute
    #expect((document["live"] as? [String: Any])?["name"] as? String == "server-1")
    #expect(document["traffic_error"] is NSNull)

    let svg = try await serverbee(["server", "server-1", "--svg", "--width", "100"], home: home)
    #expect(svg.status == 0, "\(svg.stderr)")
    #expect(svg.stdout.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"864\""))
    #expect(svg.stdout.hasSuffix("</svg>\n"))

    // Watching without a terminal appends a frame every interval until the duration is over.
    let watched = try await serverbee(
      ["server", "server-2", "--watch", "--interval", "0.5", "--duration", "1.8"], home: home)
    #expect(watched.status == 0, "\(watched.stderr)")
    let frames = watched.stdout.components(separatedBy: "● server-2  online").count - 1
    #expect((3...5).contains(frames), "\(frames) frames")

    let insights = try await serverbee(["insights", "--width", "100"], home: home)
    #expect(insights.status == 0, "\(insights.stderr)")
    for part in [
      "The fleet at a glance  2 server(s), 2 online", "Traffic     1 server(s) with a cycle",
      "Cost        12.00 USD a month (1)", "Network     ", "IP quality  ", "Incidents   none open",
    ] {
      #expect(insights.stdout.contains(part), "no '\(part)' in\n\(insights.stdout)")
    }
    let fleet = try await serverbee(["insights", "--json"], home: home)
    let all = try #require(
      try JSONSerialization.jsonObject(with: Data(fleet.stdout.utf8)) as? [String: Any])
    #expect(all["servers"] as? Int == 2)
    #expect((all["traffic"] as? [Any])?.count == 1)
    #expect(all["incidents_error"] is NSNull)

    // Bad input is one line and exit 64, before any request.
    let range = try await serverbee(["server", "server-1", "--range", "2h"], home: home)
    #expect(range.status == 64)
    #expect(range.stderr == "serverbee: --range takes 1h, 6h, 24h or 7d, got '2h'\n")
    let both = try await serverbee(["server", "server-1", "--svg", "--json"], home: home)
    #expect(both.status == 64, "\(both.stderr)")
    let unknown = try await serverbee(["server", "nope"], home: home)
    #expect(unknown.status == 1)
    #expect(unknown.stderr.hasPrefix("serverbee: "), "\(unknown.stderr)")
  }
}
