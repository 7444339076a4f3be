import Foundation
import ServerBeeModels
import ServerBeeRelay
import ServerBeeTestHarness
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The options of the built `serverbee-relay`: `--help`, `--limits`, `--capture`,
/// its movable clock, and running out of file descriptors.
@Suite(.timeLimit(.minutes(5)))
struct ExecutableOptionsTests {
  /// A running relay executable; the process group ends with the test.
  struct Running {
    let process: Process
    let port: UInt16
    let controlToken = "ctl"
    let errors: Task<Data, any Error>

    /// The relay's stderr, once it has exited.
    func log() async throws -> String {
      process.terminate()
      await process.exited()
      return String(decoding: try await errors.value, as: UTF8.self)
    }

    func control(_ method: String, _ path: String, _ body: String = "") async throws
      -> RelayClient.Response
    {
      let client = try #require(RelayClient(port: port))
      client.request(
        method, "/__relay" + path,
        headers: [("Content-Type", "application/json"), ("X-Relay-Token", controlToken)],
        body: Array(body.utf8))
      return try #require(await client.response(timeout: 120))
    }

    func send(_ body: SendBody) async throws -> RelayClient.Response {
      let client = try #require(RelayClient(port: port))
      client.request(
        "POST", "/v1/send", headers: [("Content-Type", "application/json")], body: body.bytes)
      return try #require(await client.response(timeout: 120))
    }
  }

  /// Starts the executable with `arguments`, optionally under `prlimit --nofile=N:N`.
  static func start(_ arguments: [String], openFiles: Int? = nil) async throws -> Running {
    let process = Process()
    let relay = try ExecutableTests.executable()
    if let openFiles {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
      process.arguments = ["--nofile=\(openFiles):\(openFiles)", relay.path]
    } else {
      process.executableURL = relay
      process.arguments = []
    }
    process.arguments? += ["--port", "0", "--control-token", "ctl"] + arguments
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.runUnderWatchdog()
    let errors = Task { try await offPool { stderr.fileHandleForReading.readDataToEndOfFile() } }
    let line = try await ExecutableTests.readLine(stdout)
    let announced = try WireJSON.decode(JSONValue.self, from: Data(line.utf8))
    let url = try #require(announced["url"]?.stringValue)
    let port = try #require(UInt16(url.split(separator: ":").last ?? ""))
    return Running(process: process, port: port, errors: errors)
  }

  static var realNow: Int64 { Int64(Date().timeIntervalSince1970) }

  @Test func aRelayThatRefusedNothingLogsNoRefusal() async throws {
    // The 503 for running out of descriptors is written at start, ready for use; writing it
    // is not refusing anyone.
    let relay = try await Self.start(["--provider", "scripted"])
    defer { relay.process.endGroup() }
    let log = try await relay.log()
    #expect(log.contains("listening on"), "\(log)")
    #expect(!log.contains("rejected"), "\(log)")
    #expect(!log.contains("RelayBusy"), "\(log)")
  }

  @Test func helpListsEveryOptionWithItsDefault() async throws {
    let result = try await Process.output(of: try ExecutableTests.executable(), ["--help"])
    #expect(result.status == 0)
    let text = String(decoding: result.stdout, as: UTF8.self)
    for option in [
      "--port", "--host", "--tls-cert", "--tls-key", "--control-token", "--environments",
      "--topic", "--provider", "--limits", "--capture", "--apns-url", "--apns-ca-file", "--help",
    ] {
      let listed = text.split(separator: "\n").contains { line in
        let trimmed = line.drop { $0 == " " }
        return trimmed.hasPrefix(option + " ") || trimmed.hasPrefix("-h, \(option)")
      }
      #expect(listed, "\(option) is not listed")
    }
    for value in [
      "(default 0)", "(default 127.0.0.1)", "(default sandbox,production)",
      "(default app.serverbee)", "(default devices)", "(default 120,600,60)",
      "default 0: none kept", "(default: a random one)",
    ] {
      #expect(text.contains(value), "\(value) is missing")
    }
    #expect(result.errorText.isEmpty)
  }

  @Test(arguments: [
    ["--limits", "1,2"], ["--limits", "0,600,60"], ["--limits", "a,b,c"], ["--capture", "-1"],
    ["--capture", "many"],
  ])
  func badLimitsAndCaptureExitWithStatusTwo(_ arguments: [String]) async throws {
    let result = try await Process.output(of: try ExecutableTests.executable(), arguments)
    #expect(result.status == 2, "\(arguments)")
    #expect(result.errorText.split(separator: "\n").count == 1, "\(result.errorText)")
  }

  @Test func limitsSetThePerClientLimit() async throws {
    let relay = try await Self.start(["--provider", "scripted", "--limits", "2,600,60"])
    defer { relay.process.endGroup() }
    let expiresAt = Self.realNow + 600
    // The limiter counts in fixed one-minute windows, so three sends may straddle a window's
    // end; five sends cannot all pass two windows of two (that would take over a minute).
    var accepted = 0
    var limited: RelayClient.Response?
    for index in 0..<5 {
      let reply = try await relay.send(SendBody(token: "0\(index)", expiresAt: expiresAt))
      if reply.isVerdict(200, .accepted, .accepted) {
        accepted += 1
      } else {
        limited = reply
        break
      }
    }
    #expect(accepted >= 2, "the first two sends of a window pass")
    let refusal = try #require(limited, "\(accepted) sends passed a limit of 2 per minute")
    #expect(refusal.isVerdict(429, .retryable, .rateLimited))
  }

  @Test func nothingIsCapturedByDefaultAndCaptureKeepsTheLastN() async throws {
    let expiresAt = Self.realNow + 600
    let plain = try await Self.start([])
    defer { plain.process.endGroup() }
    _ = try await plain.send(SendBody(token: "01", expiresAt: expiresAt))
    #expect(try await plain.control("GET", "/requests").text == "[]")
    #expect(try await plain.control("GET", "/deliveries").text == "[]")

    let capturing = try await Self.start(["--provider", "scripted", "--capture", "2"])
    defer { capturing.process.endGroup() }
    for token in ["01", "02", "03"] {
      _ = try await capturing.send(SendBody(token: token, expiresAt: expiresAt))
    }
    let requests = try await capturing.control("GET", "/requests")
    let list = try WireJSON.decode(JSONValue.self, from: Data(requests.body))
    guard case .array(let items) = list else {
      Issue.record("not a list: \(requests.text)")
      return
    }
    #expect(items.map { $0["request"]?["device_token"]?.stringValue } == ["02", "03"])
    let deliveries = try await capturing.control("GET", "/deliveries")
    #expect(deliveries.text.contains("\"03\"") || deliveries.text.contains("03"))
  }

  /// A relay process moved with the simulator accepts pushes that expire relative to
  /// the moved clock.
  @Test func theClockMovesWithTheControlAPI() async throws {
    let relay = try await Self.start(["--provider", "scripted"])
    defer { relay.process.endGroup() }
    let ahead = Self.realNow + 7200
    let early = try await relay.send(SendBody(token: "01", expiresAt: ahead + 600))
    #expect(early.isVerdict(400, .permanent, .invalidRequest))

    let before = Self.realNow + 7200
    let advanced = try await relay.control("POST", "/clock/advance", #"{"seconds":7200}"#)
    let after = Self.realNow + 7200
    #expect(advanced.status == 200)
    let now = try #require(
      try WireJSON.decode(JSONValue.self, from: Data(advanced.body))["now"].flatMap {
        if case .number(let value) = $0 { return Int64(value) } else { return nil }
      })
    #expect((before - 1)...(after + 1) ~= now, "\(now) not in \(before)...\(after)")
    let accepted = try await relay.send(SendBody(token: "02", expiresAt: ahead + 600))
    #expect(accepted.isVerdict(200, .accepted, .accepted), "\(accepted.text)")

    let set = try await relay.control("POST", "/clock/set", #"{"now":1800000000}"#)
    #expect(set.text.hasPrefix(#"{"now":18000000"#), "\(set.text)")
    #expect(try await relay.control("POST", "/clock/advance", #"{"seconds":-1}"#).status == 400)
    #expect(try await relay.control("GET", "/clock").text.hasPrefix(#"{"now":18000000"#))
  }

  /// Device streams that use up the file descriptors make new connections get 503
  /// `RelayBusy` and one log line, and the relay serves again once some close.
  @Test func runningOutOfDescriptorsAnswersRelayBusyAndLogsOnce() async throws {
    let relay = try await Self.start([], openFiles: 48)
    defer { relay.process.endGroup() }
    var streams: [RelayClient] = []
    var refusal: RelayClient.Response?
    // Each stream takes at least one descriptor (fewer than 5 since the HTTP connection's
    // thread and pipe end at the upgrade): 48 descriptors are gone before 48 streams.
    for index in 0..<48 {
      let client = try #require(RelayClient(port: relay.port))
      let reply = try #require(
        await client.subscribe(token: String(format: "%04x", index)),
        "stream \(index) got no answer")
      guard reply.status == 101 else {
        refusal = reply
        break
      }
      streams.append(client)
    }
    let busy = try #require(refusal, "48 streams fit in 48 descriptors")
    #expect(busy.isVerdict(503, .retryable, .relayBusy), "\(busy.status) \(busy.text)")
    #expect(busy.headers["retry-after"] == "1")
    let second = try #require(RelayClient(port: relay.port))
    #expect(try #require(await second.subscribe(token: "ffff")).status == 503)

    #expect(!streams.isEmpty, "no stream fitted before the refusal")
    streams.removeLast(min(8, streams.count))
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    var served = false
    while !served && ContinuousClock.now < deadline {
      let reply = try await relay.send(SendBody(token: "01", expiresAt: Self.realNow + 600))
      served = reply.status != 503
      if !served { try await Task.sleep(for: .milliseconds(50)) }
    }
    #expect(served, "the relay never served again")
    streams.removeAll()
    let log = try await relay.log()
    let lines = log.split(separator: "\n").filter { $0.contains("out of file descriptors") }
    #expect(lines.count == 1, "\(log)")
    #expect(log.contains("open files: up to 48"))
  }
}
