import ServerBeeAPI
import ServerBeeModels

/// `serverbee admin rate-limits [reset]`, `admin geoip [download]` and `admin asn [download]`:
/// the server's own machinery (admins; the database statuses for any account).
enum AdminCommands {
  private static let forbidden = "only an admin may see or reset the rate limits"

  /// `admin rate-limits`: the live buckets, blocked first, with the limits.
  static func rateLimits(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let status = try await APIRequest.run(
      "Loading the rate limits", console: console, forbidden: forbidden
    ) { try await api.rateLimits() }
    if console.json {
      console.json(try WireJSON.encode(status))
      return
    }
    console.line(
      "limits: login \(status.loginMax) and register \(status.registerMax) per "
        + "\(status.authWindowSeconds) s, public \(status.publicMax) per "
        + "\(status.publicWindowSeconds) s (per address)")
    guard !status.entries.isEmpty else {
      console.line("No address is counted now.")
      return
    }
    var table = TextTable(columns: [
      .left("SCOPE"), .left("ADDRESS"), .right("COUNT"), .right("MAX"), .left("BLOCKED"),
      .right("RESETS IN"), .left("SINCE"),
    ])
    // Blocked addresses first: they are why an admin looks.
    let entries = status.entries.filter(\.blocked) + status.entries.filter { !$0.blocked }
    for entry in entries {
      table.append([
        entry.scope.rawValue, entry.ip, "\(entry.count)", "\(entry.max)",
        entry.blocked ? "yes" : "no", "\(entry.secondsRemaining) s",
        Formatting.time(entry.windowStart),
      ])
    }
    console.line(table.render())
    if entries.contains(where: \.blocked) {
      console.line("Unblock with 'serverbee admin rate-limits reset --scope SCOPE --ip ADDRESS'.")
    }
  }

  /// `admin rate-limits reset [--scope S] [--ip IP]`: clears counters.
  static func resetRateLimits(_ context: CommandContext) async throws {
    let console = context.console
    let scope = try context.arguments.values["scope"].map { text -> RateLimitScope in
      let known: [RateLimitScope] = [.login, .register, .public]
      guard let scope = known.first(where: { $0.rawValue == text }) else {
        throw CommandLineError(.usage, "--scope takes login, register or public, got '\(text)'")
      }
      return scope
    }
    let ip = context.arguments.values["ip"]
    if let ip, ip.isEmpty {
      throw CommandLineError(.usage, "--ip needs an address, for example 203.0.113.7")
    }
    let api = try await APICredential.client(context)
    let cleared = try await APIRequest.run(
      "Resetting the rate limits", console: console, forbidden: forbidden
    ) { try await api.resetRateLimits(scope: scope, ip: ip) }
    if console.json {
      console.json(try WireJSON.encode(RateLimitResetResult(cleared: cleared)))
    } else {
      let what = [scope.map { "scope \($0.rawValue)" }, ip.map { "address \($0)" }]
        .compactMap { $0 }.joined(separator: ", ")
      console.line(
        TerminalText.safe(
          "Cleared \(cleared) rate-limit counter(s)\(what.isEmpty ? "" : " (\(what))")."))
    }
  }

  /// Which IP database a command is about.
  enum Database: Sendable {
    /// The GeoIP (country) database.
    case geoIP
    /// The ASN (network owner) database.
    case asn

    var name: String { self == .geoIP ? "GeoIP" : "ASN" }
  }

  /// `admin geoip` / `admin asn`: whether the database is installed, and which file.
  static func databaseStatus(_ context: CommandContext, _ database: Database) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let status = try await APIRequest.run(
      "Loading the \(database.name) status", console: console
    ) { database == .geoIP ? try await api.geoIPStatus() : try await api.asnStatus() }
    if console.json {
      console.json(try WireJSON.encode(status))
      return
    }
    console.line(
      TextTable.keyValue([
        ("database:", database.name),
        ("installed:", status.installed ? "yes" : "no"),
        ("source:", status.source ?? "-"),
        ("size:", status.fileSize.map(Formatting.bytes) ?? "-"),
        ("updated:", status.updatedAt.map(Formatting.time) ?? "-"),
      ]))
  }

  /// `admin geoip download` / `admin asn download` (admins): waits for the download; a failed
  /// one is the server's own sentence and exit 1.
  static func download(_ context: CommandContext, _ database: Database) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let result = try await APIRequest.run(
      "Downloading the \(database.name) database", console: console,
      forbidden: "only an admin may download the \(database.name) database"
    ) { database == .geoIP ? try await api.downloadGeoIP() : try await api.downloadASN() }
    if console.json {
      console.json(try WireJSON.encode(result))
    } else if result.success {
      console.line(TerminalText.safe(result.message.isEmpty ? "Downloaded." : result.message))
    }
    guard result.success else {
      throw CommandLineError(
        .unexpectedAnswer, "the \(database.name) download failed: \(result.message)")
    }
  }
}
