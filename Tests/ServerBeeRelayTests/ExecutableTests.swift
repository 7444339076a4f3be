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

/// The built `serverbee-relay` executable: its JSON line, one request, clean exit, bad flags,
/// and nothing secret in its log.
@Suite(.timeLimit(.minutes(5)))
struct ExecutableTests {
  /// The executable next to this test bundle (`swift build` puts both in `.build/<config>`).
  static func executable() throws -> URL { try BuiltExecutable.url("serverbee-relay") }

  /// Reads one line from a pipe, giving up at the deadline (off the pool).
  static func readLine(_ pipe: Pipe, seconds: Int32 = 30) async throws -> String {
    let fd = pipe.fileHandleForReading.fileDescriptor
    return try await offPool {
      var bytes: [UInt8] = []
      while !bytes.contains(0x0A) {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 1, seconds * 1000) > 0 else { throw PeerError("no line in time") }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &chunk, chunk.count)
        guard count > 0 else { throw PeerError("the relay exited before printing its line") }
        bytes += chunk.prefix(count)
      }
      return String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
    }
  }

  @Test func theExecutablePrintsItsLineServesASendAndExitsOnSIGTERM() async throws {
    let process = Process()
    process.executableURL = try Self.executable()
    process.arguments = [
      "--port", "0", "--control-token", "ctl", "--provider", "scripted", "--topic", "app.serverbee",
      "--environments", "sandbox,production",
    ]
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = FileHandle.nullDevice
    try process.runUnderWatchdog()
    // The child and its group end with the test, whatever happens below.
    defer { process.endGroup() }
    let errors = Task { try await offPool { stderr.fileHandleForReading.readDataToEndOfFile() } }

    let line = try await Self.readLine(stdout)
    let announced = try WireJSON.decode(JSONValue.self, from: Data(line.utf8))
    let url = try #require(announced["url"]?.stringValue)
    #expect(announced["control_token"]?.stringValue == "ctl")
    #expect(line.hasPrefix(#"{"url":"http://127.0.0.1:"#))
    #expect(line.hasSuffix(#"","control_token":"ctl"}"#))
    let port = try #require(UInt16(url.split(separator: ":").last ?? ""))

    // A real clock here: expire 10 minutes from now.
    let expiresAt = Int64(Date().timeIntervalSince1970) + 600
    let client = try #require(RelayClient(port: port))
    client.request(
      "POST", "/v1/send", headers: [("Content-Type", "application/json")],
      body: SendBody(expiresAt: expiresAt).bytes)
    let reply = try #require(await client.response())
    #expect(reply.isVerdict(200, .accepted, .accepted), "\(reply.text)")

    process.terminate()
    await process.exited()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
    let log = String(decoding: try await errors.value, as: UTF8.self)
    #expect(log.contains("POST /v1/send 200 accepted/Accepted"))
    #expect(!log.contains(SendBody.token))
    #expect(!log.contains(SendBody.ciphertext))
    #expect(!log.contains(SendBody.identity))
  }

  @Test(arguments: [
    ["--port", "70000"], ["--nope", "1"], ["--port"], ["--provider", "apns"],
    ["--environments", "sandbox,development"], ["--tls-cert", "cert.pem"], ["stray"],
  ])
  func badFlagsExitWithStatusTwoAndOneLine(_ arguments: [String]) async throws {
    let result = try await Process.output(of: try Self.executable(), arguments)
    #expect(result.status == 2, "\(arguments)")
    #expect(result.stdout.isEmpty)
    let lines = result.errorText.split(separator: "\n")
    #expect(lines.count == 1, "\(result.errorText)")
  }
}

/// Nothing the relay logs in process carries a device token, an envelope or a body.
@Suite(.timeLimit(.minutes(5)))
struct LogSecrecyTests {
  @Test func noLogLineCarriesTheTokenOrTheCiphertext() async throws {
    let devices = LocalDevicePushProvider(clock: RelayClock(now: { RelayHarness.start }))
    let harness = try await RelayHarness(fallback: devices) {
      $0.uploadTimeout = .milliseconds(300)
    }
    let device = try #require(RelayClient(port: harness.port))
    #expect(try #require(await device.subscribe(token: SendBody.token)).status == 101)
    _ = await harness.send(SendBody())
    _ = await device.text()
    harness.provider.script(deviceToken: "0123", .unregistered)
    _ = await harness.send(SendBody(token: "0123"))
    _ = await harness.send(SendBody().setting("extra", .string(SendBody.ciphertext)))
    _ = await harness.send(SendBody(expiresAt: 1))
    _ = await harness.send(SendBody().bytes + [UInt8](repeating: 0x20, count: 9000))
    _ = await harness.send(
      [], method: "DELETE", path: "/v1/devices/\(SendBody.token)",
      headers: [("X-ServerBee-Device-Token", SendBody.token)])
    let slow = try #require(RelayClient(port: harness.port))
    let body = SendBody().bytes
    slow.request(
      "POST", "/v1/send", headers: [("Content-Type", "application/json")],
      body: Array(body.prefix(body.count - 1)), contentLength: body.count)
    #expect(try #require(await slow.response()).status == 408)

    let lines = harness.logs.withLock { $0 }
    #expect(lines.count >= 6)
    for line in lines {
      #expect(!line.contains(SendBody.token), "\(line)")
      #expect(!line.contains("0123"), "\(line)")
      #expect(!line.contains(SendBody.ciphertext), "\(line)")
      #expect(!line.contains(SendBody.identity), "\(line)")
    }
  }
}
