import Foundation
import ServerBeeTestHarness
import Testing

/// `serverbee probes …`, run as the built executable against the built simulator
/// (Protocol/AppRoutes.md §6): the fleet and one server, records and anomalies, targets and
/// settings, JSON, `--yes` for deletes, and the one-line errors.
@Suite(.timeLimit(.minutes(5))) struct CommandLineProbeTests {
  @Test func probesTargetsAndSettingsFromTheCommandLine() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 2)
    defer { simulator.terminate() }
    let login = try await serverbee(
      ["login", "--server", simulator.url, "--username", "admin", "--password", "admin-password"],
      home: home)
    #expect(login.status == 0, "\(login.stderr)")

    let fleet = try await serverbee(["probes"], home: home)
    #expect(fleet.status == 0, "\(fleet.stderr)")
    #expect(fleet.stdout.hasPrefix("SERVER"), "\(fleet.stdout)")
    #expect(fleet.stdout.contains("server-1"), "\(fleet.stdout)")
    let fleetJSON = try await serverbee(["probes", "--json"], home: home)
    let servers = try #require(
      try JSONSerialization.jsonObject(with: Data(fleetJSON.stdout.utf8)) as? [[String: Any]])
    #expect(servers.count == 2)
    #expect((servers.first?["latency_sparkline"] as? [Any])?.count == 30)

    let one = try await serverbee(["probes", "server-1"], home: home)
    #expect(one.status == 0, "\(one.stderr)")
    #expect(one.stdout.hasPrefix("server-1 (online): last probe "), "\(one.stdout)")
    #expect(one.stdout.contains("Cloudflare DNS"), "\(one.stdout)")

    let records = try await serverbee(
      ["probes", "server-1", "records", "--target", "preset-google-dns", "--json"], home: home)
    #expect(records.status == 0, "\(records.stderr)")
    let raw = try #require(
      try JSONSerialization.jsonObject(with: Data(records.stdout.utf8)) as? [[String: Any]])
    #expect((59...61).contains(raw.count), "\(raw.count)")
    #expect(raw.allSatisfy { $0["target_id"] as? String == "preset-google-dns" })
    let hourly = try await serverbee(
      ["probes", "server-1", "records", "--range", "7d"], home: home)
    #expect(hourly.stdout.contains("hourly aggregate(s)"), "\(hourly.stdout)")
    let anomalies = try await serverbee(
      ["probes", "server-1", "anomalies", "--range", "7d"], home: home)
    #expect(anomalies.status == 0, "\(anomalies.stderr)")
    #expect(anomalies.stdout.hasPrefix("TIME"), "\(anomalies.stdout)")

    let created = try await serverbee(
      [
        "probes", "targets", "create", "Office", "--target", "office.example.com", "--type",
        "icmp", "--provider", "ISP", "--json",
      ], home: home)
    #expect(created.status == 0, "\(created.stderr)")
    let target = try #require(
      try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: Any])
    let id = try #require(target["id"] as? String)
    let edited = try await serverbee(["probes", "targets", "edit", id, "--name", "HQ"], home: home)
    #expect(edited.stdout == "Updated probe target HQ: icmp office.example.com (id \(id)).\n")
    let list = try await serverbee(["probes", "targets"], home: home)
    #expect(list.stdout.contains("preset"), "\(list.stdout)")
    #expect(list.stdout.contains("HQ"), "\(list.stdout)")

    let set = try await serverbee(
      ["probes", "settings", "set", "--interval", "120", "--defaults", id], home: home)
    #expect(set.status == 0, "\(set.stderr)")
    #expect(
      set.stdout
        == "Probes every 120 s with 10 packets; default targets for new servers: \(id).\n")

    // Deleting needs --yes without a terminal, and takes the target out of the defaults.
    let refused = try await serverbee(["probes", "targets", "delete", id], home: home)
    #expect(refused.status != 0)
    #expect(refused.stderr.contains("--yes"), "\(refused.stderr)")
    let deleted = try await serverbee(["probes", "targets", "delete", id, "--yes"], home: home)
    #expect(deleted.status == 0, "\(deleted.stderr)")
    let settings = try await serverbee(["probes", "settings"], home: home)
    #expect(
      settings.stdout
        == "Probes every 120 s with 10 packets; default targets for new servers: none.\n")

    // Presets are fixed; bad input is one line, before any request.
    let preset = try await serverbee(
      ["probes", "targets", "delete", "preset-google-dns", "--yes"], home: home)
    #expect(preset.status != 0)
    #expect(
      preset.stderr.contains(
        "'preset-google-dns' is a preset probe target, which cannot be deleted"),
      "\(preset.stderr)")
    let range = try await serverbee(["probes", "server-1", "records", "--range", "2d"], home: home)
    #expect(range.status == 64)
    #expect(range.stderr == "serverbee: --range expects 1h, 6h, 24h or 7d, got '2d'\n")
    let interval = try await serverbee(
      ["probes", "settings", "set", "--interval", "10"], home: home)
    #expect(interval.status == 64)
    #expect(
      interval.stderr
        == "serverbee: --interval takes a whole number of seconds from 30 to 600, got '10'\n")
    let unknown = try await serverbee(["probes", "nope"], home: home)
    #expect(unknown.status != 0)
    #expect(unknown.stderr.contains("no server 'nope'"), "\(unknown.stderr)")
  }
}
