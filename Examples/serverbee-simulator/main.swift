import Foundation
import ServerBeeModels
import ServerBeeServerKit
import ServerBeeSimulator

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// serverbee-simulator --port 0 --data DIR --admin NAME:PASSWORD [--member NAME:PASSWORD]
//   [--servers N] [--history DAYS] [--metrics-interval SECONDS] [--tls-cert FILE --tls-key FILE]
//   [--relay-url URL] [--outbox-workers N] [--docker N] [--docker-timeout SECONDS]
// Prints one JSON line {"url":…,"control_token":…} on stdout once listening; logs to stderr.
// With --data, the control token is kept in DIR/control-token (0600) and reused on restart, and
// --servers N only adds the server-K names that do not exist yet. One simulator per DIR: a
// second one exits with status 3 before touching it (DIR/simulator.lock).
//
// The signal set-up, the JSON line and the wait for SIGINT/SIGTERM are ServerProcess's
// (ServerBeeServerKit), shared with serverbee-relay.

let usage = """
  usage: serverbee-simulator --admin NAME:PASSWORD [--port N] [--data DIR]
           [--member NAME:PASSWORD]… [--servers N] [--history DAYS] [--metrics-interval SECONDS]
           [--tls-cert FILE --tls-key FILE] [--relay-url URL] [--outbox-workers N]
           [--docker N] [--docker-timeout SECONDS]

  A local ServerBee-compatible server (mobile API of v1 and v2 servers) for tests and demos.
  Prints one JSON line {"url":…,"control_token":…} on stdout once listening; logs go to stderr.
  SIGINT or SIGTERM stops it.

    --admin NAME:PASSWORD    the admin account (required; created once)
    --port N                 the port on 127.0.0.1; 0 picks a free one (default 0)
    --data DIR               the state (SQLite, control token, clock offset), kept across
                             restarts; one simulator at a time, files 0600 in a 0700 directory
                             (default: a new temporary directory)
    --member NAME:PASSWORD   a member account (repeatable; default none)
    --servers N              servers named server-1…server-N; those missing are created
                             (default 0)
    --history DAYS           a made-up past of 0 to 31 days for every server: a record a
                             minute before its oldest one, for history charts (default 0)
    --metrics-interval S     seconds between simulated agent reports, 0 for none (default 3)
    --tls-cert FILE          serve HTTPS and WSS with this PEM certificate and --tls-key
                             (default none: plain HTTP)
    --tls-key FILE           the PEM private key for --tls-cert (default none)
    --relay-url URL          the push relay ([push_relay].url; default none: no delivery)
    --outbox-workers N       push outbox threads, 0 to 64 (default 4)
    --docker N               Docker on for server-1…server-N: the docker capability and
                             feature, so 'serverbee docker' answers (default 0: none)
    --docker-timeout S       seconds a Docker route waits for an agent made unresponsive
                             before its 408 (default 30)
    -h, --help               this text
    --version                the version

  Limits: at most 1,024 connections, fewer when the descriptor limit is lower: a WebSocket
  takes 5 file descriptors and 1 thread, an HTTP connection 3 and 1, so the cap is
  (ulimit -n - 64) / 5. The soft descriptor limit is raised to the hard one at start; past
  the cap, or out of descriptors, new clients get 503 and stderr one line (once a minute).

  Exit status: 0 after SIGINT or SIGTERM (or --help, --version), 2 for a bad option or a failed
  start, 3 when DIR is in use by another simulator.

  """
/// The version `--version` prints: the simulator of this package, for the server generations it
/// serves.
let version = "serverbee-simulator 0.2 (ServerBeeKit; ServerBee mobile API v1 + v2)"

let process = ServerProcess(name: "serverbee-simulator", usage: usage, version: version)
process.answerHelpAndVersion(CommandLine.arguments)

func log(_ text: String) { process.log(text) }

func fail(_ text: String) -> Never { process.fail(text) }

// Process-wide, before any thread starts: the soft descriptor limit up to the hard one, and two
// malloc arenas instead of one per connection thread.
let descriptorLimit = Simulator.prepareProcess()

var options: [String: [String]] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
  guard flag.hasPrefix("--"), let value = arguments.popFirst() else {
    fail("expected --flag VALUE, got \(flag) (see --help)")
  }
  options[String(flag.dropFirst(2)), default: []].append(value)
}
let known: Set<String> = [
  "port", "data", "admin", "member", "servers", "history", "metrics-interval", "tls-cert",
  "tls-key",
  "relay-url", "outbox-workers", "docker", "docker-timeout",
]
for name in options.keys where !known.contains(name) {
  fail("unknown option --\(name) (see --help)")
}

/// Writes `text` to `file`, created 0600: the mode is given to `open`, so the token is never
/// readable by others, not even for a moment (a file made first and restricted after would be).
func writePrivateFile(_ file: URL, _ text: String) -> Bool {
  let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
  guard descriptor >= 0 else { return false }
  defer { close(descriptor) }
  _ = fchmod(descriptor, 0o600)  // an older file may have been created with another mode
  let bytes = Array(text.utf8)
  return bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
}

func account(_ text: String) -> (String, String) {
  guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
    fail("accounts are NAME:PASSWORD")
  }
  return (String(text[..<colon]), String(text[text.index(after: colon)...]))
}

guard let admin = options["admin"]?.first else {
  fail("--admin NAME:PASSWORD is required (see --help)")
}
guard let port = UInt16(options["port"]?.first ?? "0") else {
  fail("--port takes a number from 0 to 65535")
}
guard let servers = Int(options["servers"]?.first ?? "0"), servers >= 0 else {
  fail("--servers takes a number from 0")
}
guard let history = Int(options["history"]?.first ?? "0"), (0...31).contains(history) else {
  fail("--history takes a number of days from 0 to 31")
}
var configuration = Simulator.Configuration(
  dataDirectory: options["data"]?.first.map { URL(fileURLWithPath: $0) })
configuration.log = { log($0) }
if let interval = options["metrics-interval"]?.first {
  guard let seconds = Double(interval), seconds.isFinite, seconds >= 0 else {
    fail("--metrics-interval takes seconds, 0 for none")
  }
  configuration.metricsInterval = seconds > 0 ? seconds : nil
}
if let relay = options["relay-url"]?.first {
  // Kept even when unusable, as a real server keeps its config: the settings then say
  // delivery_available:false (Protocol/Push.md §2.7).
  configuration.relayURL = relay
}
if let workers = options["outbox-workers"]?.first {
  guard let count = Int(workers), (0...64).contains(count) else {
    fail("--outbox-workers takes a number from 0 to 64")
  }
  configuration.outboxWorkers = count
}
guard let docker = Int(options["docker"]?.first ?? "0"), docker >= 0 else {
  fail("--docker takes a number of servers from 0")
}
if let timeout = options["docker-timeout"]?.first {
  guard let seconds = Double(timeout), seconds.isFinite, seconds >= 0, seconds <= 3600 else {
    fail("--docker-timeout takes seconds from 0 to 3600")
  }
  configuration.dockerAgentTimeout = seconds
}
// The control token lives next to the database, so a restart with the same --data keeps it (a
// test or script holding the token goes on working).
let tokenFile = options["data"]?.first.map {
  URL(fileURLWithPath: $0).appendingPathComponent("control-token")
}
if let tokenFile, let saved = try? String(contentsOf: tokenFile, encoding: .utf8) {
  let token = saved.trimmingCharacters(in: .whitespacesAndNewlines)
  if !token.isEmpty { configuration.controlToken = token }
}
var tls: Simulator.TLSFiles?
switch (options["tls-cert"]?.first, options["tls-key"]?.first) {
case (let cert?, let key?):
  tls = Simulator.TLSFiles(
    certificate: URL(fileURLWithPath: cert), privateKey: URL(fileURLWithPath: key))
case (nil, nil): tls = nil
default: fail("--tls-cert and --tls-key go together")
}

process.prepareSignals()

do {
  let simulator = try Simulator(configuration: configuration)
  let (adminName, adminPassword) = account(admin)
  // Seeding is idempotent across restarts with the same --data directory.
  _ = try? simulator.createUser(username: adminName, password: adminPassword, role: "admin")
  for member in options["member"] ?? [] {
    let (name, password) = account(member)
    _ = try? simulator.createUser(username: name, password: password, role: "member")
  }
  if let tokenFile, configuration.controlToken == nil,
    !writePrivateFile(tokenFile, simulator.controlToken)
  {
    log("could not keep the control token in \(tokenFile.path)")
  }
  if servers > 0 { try simulator.ensureServers(count: servers) }
  if history > 0 { try simulator.backfillHistory(days: history) }
  if docker > 0 { try simulator.enableDocker(servers: docker) }
  let url = try simulator.start(port: port, tls: tls)
  try process.announce(url: url, controlToken: simulator.controlToken)
  log("listening on \(url.absoluteString) (data: \(configuration.dataDirectory.path))")
  log(
    "at most \(simulator.maximumConnections) connections (\(descriptorLimit) descriptors; "
      + "a WebSocket takes 5 and 1 thread)")
  process.waitForStopSignal()
  simulator.stop()
  // Without --data the state lived in a temporary directory of this run: it goes with it.
  if options["data"] == nil { try? FileManager.default.removeItem(at: configuration.dataDirectory) }
  log("stopped")
} catch let error as ServerBeeSimulatorError where error.code == .dataDirectoryInUse {
  // One line, the directory and the owner's pid; nothing in DIR was read or written.
  log(error.message)
  exit(3)
} catch {
  fail("\(error)")
}
