import Foundation
import ServerBeeModels

/// A server's made-up Docker engine (Protocol/AppRoutes.md §8.5): its containers, their numbers,
/// networks, volumes, past events and log lines, each a pure function of the server's id, its
/// creation time and the simulator clock, so a fixed clock gives fixed answers.
///
/// [inferred: the simulator's engine] four to six containers per server, picked from
/// ``templates`` by the server id, one Compose project `stack`; the one `worker` container,
/// when picked, has exited. What actions change (a container stopped, started or removed) is
/// stored by ``DockerArea`` and laid over the plan.
struct DockerPlan {
  /// One kind of container the plan picks from.
  struct Template {
    var service: String
    var image: String
    var ports: [(inside: Int, outside: Int?)]
    var running: Bool
    /// Seconds between two of its log lines.
    var logInterval: Int64
    /// Its volume, when it keeps data.
    var volume: String?
    /// Its log lines, cycled; `{n}` is the line's number, `{ip}` a client address.
    var lines: [(stream: String, text: String)]
  }

  /// The containers a server's engine may run, in the order they are listed.
  static let templates: [Template] = [
    Template(
      service: "web", image: "nginx:1.27", ports: [(80, 8080), (443, 8443)], running: true,
      logInterval: 2, volume: nil,
      lines: [
        ("stdout", "{ip} - - \"GET / HTTP/1.1\" 200 612 \"-\" \"curl/8.5.0\""),
        ("stdout", "{ip} - - \"GET /api/health HTTP/1.1\" 200 17 \"-\" \"kube-probe/1.30\""),
        ("stdout", "{ip} - - \"POST /api/login HTTP/1.1\" 401 43 \"-\" \"Mozilla/5.0\""),
        ("stderr", "[warn] 29#29: *{n} upstream response is buffered to a temporary file"),
      ]),
    Template(
      service: "api", image: "ghcr.io/example/api:1.4.2", ports: [(3000, 3000)],
      running: true, logInterval: 3, volume: nil,
      lines: [
        ("stdout", "INFO request id={n} method=GET path=/v1/items status=200 took=12ms"),
        ("stdout", "INFO request id={n} method=POST path=/v1/orders status=201 took=48ms"),
        ("stderr", "WARN request id={n} slow query took=812ms"),
      ]),
    Template(
      service: "db", image: "postgres:16", ports: [(5432, nil)], running: true, logInterval: 7,
      volume: "pgdata",
      lines: [
        ("stdout", "LOG:  checkpoint starting: time"),
        ("stdout", "LOG:  checkpoint complete: wrote {n} buffers (0.1%)"),
        ("stderr", "ERROR:  duplicate key value violates unique constraint \"orders_pkey\""),
      ]),
    Template(
      service: "cache", image: "redis:7.4", ports: [(6379, nil)], running: true, logInterval: 11,
      volume: nil,
      lines: [
        ("stdout", "1:M * {n} changes in 60 seconds. Saving..."),
        ("stdout", "1:M * Background saving terminated with success"),
      ]),
    Template(
      service: "metrics", image: "prom/prometheus:v2.54.1", ports: [(9090, 9090)],
      running: true, logInterval: 5, volume: "prometheus",
      lines: [
        ("stderr", "ts=… level=info component=tsdb msg=\"Head GC completed\" series={n}"),
        ("stderr", "ts=… level=info component=tsdb msg=\"Compaction completed\""),
      ]),
    Template(
      service: "worker", image: "ghcr.io/example/worker:1.4.2", ports: [], running: false,
      logInterval: 13, volume: nil,
      lines: [
        ("stdout", "job {n} done"),
        ("stderr", "job {n} failed: connection refused, retrying"),
      ]),
  ]

  /// The Compose project every container belongs to.
  static let project = "stack"

  /// One container of the plan, before the stored changes.
  struct Container {
    var id: String
    var template: Template
    /// Creation, nanoseconds.
    var created: Int64

    var name: String { "/\(DockerPlan.project)-\(template.service)-1" }
  }

  let serverID: String
  /// The server's creation, nanoseconds.
  let serverCreated: Int64

  /// The containers, in the plan's order.
  var containers: [Container] {
    let count = 4 + Int(SeededNoise.bits(serverID, "docker-count", 0) % 3)
    // Always the first one (a web server), then the rest in the templates' order, skipping
    // some by the server id.
    var picked = [0]
    var skip = Self.templates.count - count
    for index in 1..<Self.templates.count {
      if skip > 0, SeededNoise.bits(serverID, "docker-skip", index) % 2 == 0 {
        skip -= 1
        continue
      }
      if picked.count < count { picked.append(index) }
    }
    return picked.map { index in
      let template = Self.templates[index]
      let daysBefore = 1 + Int64(SeededNoise.bits(serverID, "docker-created", index) % 20)
      return Container(
        id: Self.hexID(serverID, template.service), template: template,
        created: serverCreated - daysBefore * 86_400 * SimulatorCore.second)
    }
  }

  /// A 64-hex-digit id, as Docker's, derived from the server and `name`.
  static func hexID(_ serverID: String, _ name: String) -> String {
    (0..<4).map { part in
      let text = String(SeededNoise.bits(serverID, name, part), radix: 16)
      return String(repeating: "0", count: 16 - text.count) + text
    }.joined()
  }

  // MARK: Numbers

  /// A container's resource use at `now` (nanoseconds): a new sample every 10 s.
  func stats(_ container: Container, running: Bool, memoryLimit: Int64, now: Int64)
    -> [(String, JSONValue)]
  {
    let bucket = Int(now / (10 * SimulatorCore.second))
    let key = serverID + container.id
    let cpu = running ? Self.fraction(0.2 + SeededNoise.unit(key, "cpu", bucket) * 35) : 0
    let base = Int64(32 << 20) + Int64(SeededNoise.bits(key, "memory", 0) % UInt64(480 << 20))
    let memory =
      running ? base + Int64(SeededNoise.unit(key, "memory", bucket) * Double(24 << 20)) : 0
    let limit = max(memoryLimit, 1)
    let uptime = max(0, (now - container.created) / SimulatorCore.second)
    let rate = Int64(200 + SeededNoise.bits(key, "network", 0) % 4000)
    return [
      ("id", .string(container.id)), ("name", .string(String(container.name.dropFirst()))),
      ("cpu_percent", .number(cpu)), ("memory_usage", .integer(memory)),
      ("memory_limit", .integer(limit)),
      ("memory_percent", .number(Self.fraction(Double(memory) * 100 / Double(limit)))),
      ("network_rx", .integer(uptime * rate)), ("network_tx", .integer(uptime * rate / 3)),
      ("block_read", .integer(uptime * rate / 7)), ("block_write", .integer(uptime * rate / 5)),
    ]
  }

  /// `value` with two decimals, never a whole number (a float on the wire stays one).
  static func fraction(_ value: Double) -> Double {
    let rounded = (value * 100).rounded() / 100
    return rounded == rounded.rounded() ? rounded + 0.01 : rounded
  }

  // MARK: Logs

  /// One log line of `container`: the `number`th since it was created.
  func logLine(_ container: Container, _ number: Int64) -> DockerLogEntry {
    let lines = container.template.lines
    let pick = Int(SeededNoise.bits(serverID + container.id, "log", Int(number)) % 100)
    // Mostly the first lines; the last one (often stderr) now and then.
    let index = pick < 85 ? Int(number) % max(1, lines.count - 1) : lines.count - 1
    let line = lines[index]
    let address = "203.0.113.\(1 + SeededNoise.bits(serverID, "ip", Int(number)) % 254)"
    let text = line.text.replacingOccurrences(of: "{n}", with: String(number))
      .replacingOccurrences(of: "{ip}", with: address)
    let at = logTime(container, number)
    let nanos = Int32(SeededNoise.bits(container.id, "ns", Int(number)) % 1_000_000_000)
    let timestamp = RFC3339Timestamp(
      secondsSince1970: at / SimulatorCore.second, nanoseconds: max(1, nanos))
    return DockerLogEntry(
      timestamp: timestamp.description, stream: line.stream, message: text)
  }

  /// When line `number` of `container` was written, nanoseconds.
  func logTime(_ container: Container, _ number: Int64) -> Int64 {
    container.created + number * container.template.logInterval * SimulatorCore.second
  }

  /// The number of the last line written at or before `time`; -1 before the first.
  func lastLine(_ container: Container, at time: Int64) -> Int64 {
    guard time >= container.created else { return -1 }
    return (time - container.created) / (container.template.logInterval * SimulatorCore.second)
  }
}
