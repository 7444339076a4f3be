import Foundation
import ServerBeeModels
import ServerBeeRelay
import ServerBeeSocketTransport
import ServerBeeTestHarness
import ServerBeeTransport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `serverbee push listen --duration S` is a deadline: against a relay flooded with
/// pushes, read by a terminal slower than the flood, it ends about S seconds after it started
/// listening instead of draining a backlog first.
@Suite(.timeLimit(.minutes(5))) struct CommandLinePushListenDeadlineTests {
  @Test func listenEndsAtItsDurationWhileTheRelayIsFlooded() async throws {
    let devices = LocalDevicePushProvider()
    var configuration = RelayServer.Configuration()
    configuration.limits = RelayServer.Limits(
      requestsPerClient: .max, sendsPerDevice: .max, requestsPerRelay: .max)
    let world = try await CommandLineWorld(
      provider: ScriptedPushProvider(fallback: devices, maximumReceived: 0),
      relayConfiguration: configuration)
    try await world.logInAsAdmin()

    let process = Process()
    process.executableURL = try BuiltExecutables.url("serverbee")
    process.arguments = [
      "--home", world.home().path, "push", "listen", "--relay", world.relayURL.absoluteString,
      "--duration", "6", "--json",
    ]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    let ended = Locked<ContinuousClock.Instant?>(nil)
    process.terminationHandler = { _ in ended.withLock { $0 = ContinuousClock.now } }
    try process.runUnderWatchdog()
    // A slow terminal: about 2 KB/s, some 25 pushes a second, far fewer than the flood. What
    // is left in the pipe once the listener has ended is read at once.
    let reader = Task {
      try await offPool {
        Self.readSlowly(output, bytesPerSecond: 2_000) { ended.withLock { $0 != nil } }
      }
    }

    let online = ContinuousClock.now.advanced(by: .seconds(30))
    var device: String?
    while device == nil, ContinuousClock.now < online, process.isRunning {
      device = devices.devices().first(where: \.isOnline)?.deviceToken
      try await Task.sleep(for: .milliseconds(20))
    }
    let token = try #require(device, "the listener never came online")
    let listening = ContinuousClock.now

    let accepted = Locked(0)
    let flood = Task {
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<8 {
          group.addTask {
            let transport = SocketHTTPTransport()
            while ended.withLock({ $0 == nil }), ContinuousClock.now - listening < .seconds(60) {
              let request = Self.send(to: world.relayURL, token: token)
              if let reply = try? await transport.send(request), reply.status == 200 {
                accepted.withLock { $0 += 1 }
              }
            }
          }
        }
      }
    }
    // Bounded: a listener that drains its backlog instead would take far longer; kill it then.
    let limit = ContinuousClock.now.advanced(by: .seconds(60))
    while ended.withLock({ $0 == nil }), ContinuousClock.now < limit {
      try await Task.sleep(for: .milliseconds(50))
    }
    if process.isRunning { process.signalGroup(SIGKILL) }
    await process.exited()
    await flood.value
    let lines = try await reader.value
    let end = try #require(ended.withLock { $0 })
    // 6 s from before it connected (long enough for a loaded machine to connect well within
    // it); the rest is slack. Draining the backlog at the terminal's pace would take minutes.
    #expect(end - listening < .seconds(12), "listen ran \(end - listening) after connecting")
    #expect(process.terminationStatus == 0)
    // Every push the listener printed was one the relay accepted (on a calm machine the
    // listener may keep up with the flood; the deadline above is what this proves).
    #expect(accepted.withLock { $0 } >= lines)
    #expect(lines > 0)
  }

  /// Reads `pipe` to its end at about `bytesPerSecond` until `done`, then at once; returns the
  /// lines read.
  static func readSlowly(_ pipe: Pipe, bytesPerSecond: Int, done: () -> Bool) -> Int {
    let handle = pipe.fileHandleForReading
    let started = ContinuousClock.now
    var total = 0
    var lines = 0
    var buffer = [UInt8](repeating: 0, count: 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes {
        read(handle.fileDescriptor, $0.baseAddress, $0.count)
      }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return lines }
      lines += buffer[0..<count].count { $0 == 0x0A }
      total += count
      let due = started.advanced(by: .milliseconds(total * 1000 / bytesPerSecond))
      let ahead = due - ContinuousClock.now
      if ahead > .zero, !done() { Thread.sleep(forTimeInterval: ahead / .seconds(1)) }
    }
  }

  /// One `POST /v1/send` with its own random ciphertext (which the listener cannot open: it
  /// shows the fallback text), so compression cannot shrink the flood.
  static func send(to relay: URL, token: String) -> HTTPRequest {
    var generator = SystemRandomNumberGenerator()
    let ciphertext = Data((0..<1024).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let nonce = Data((0..<12).map { _ in UInt8.random(in: 0...255, using: &generator) })
    let expires = Int(Date().timeIntervalSince1970) + 1200
    let body =
      #"{"device_token":"\#(token)","environment":"sandbox","#
      + #""event_id":"\#(UUID().uuidString.lowercased())","expires_at":\#(expires),"#
      + #""envelope":{"version":1,"key_id":"6b1f9c2e-3d4a-4b5c-8d6e-7f8091a2b3c4","#
      + #""identity":"40e9ea0a395dec3bafe5e84afbbe2e726ac53aa273f168b4ac650b208fdef51f","#
      + #""nonce":"\#(nonce.base64EncodedString())","#
      + #""ciphertext":"\#(ciphertext.base64EncodedString())"}}"#
    return HTTPRequest(
      method: .post, url: relay.appendingPathComponent("v1/send"),
      headers: ["content-type": "application/json"], body: Data(body.utf8))
  }
}
