import Foundation
import ServerBeeTestHarness
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A running `serverbee-simulator` child process and its control API.
///
/// It runs under the test watchdog in a process group of its own. Stop it with ``stop()`` (also
/// done on release), so no child outlives its test, and a crashed test process takes it along.
final class SimulatorProcess: Sendable {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The base URL it printed.
  let url: String
  /// The control token it printed.
  let controlToken: String
  private let process: Process
  /// A socket bound to the port after ``stop()`` (no listener), or -1.
  private let heldPort = Mutex<Int32>(-1)

  /// Starts the simulator and waits for its JSON line.
  /// - Parameters:
  ///   - port: The port; 0 picks one.
  ///   - data: The data directory (the same one keeps the state across restarts); `nil`
  ///     leaves `--data` out, so the simulator makes a temporary directory.
  ///   - servers: Servers to create.
  ///   - extra: More arguments (for example `--tls-cert` and `--tls-key`).
  ///   - environment: Variables added to the child's environment (for example `TMPDIR`).
  ///   - launcher: A program that execs the simulator with its arguments, with its own
  ///     arguments first (for example `prlimit --nofile=256:256 --`); none by default.
  ///   - standardError: A file for the child's stderr; discarded by default.
  /// - Throws: ``Failure`` when it does not announce itself, or a decoding error.
  init(
    port: Int = 0, data: URL?, servers: Int = 0, extra: [String] = [],
    environment: [String: String] = [:], launcher: [String] = [], standardError: URL? = nil
  ) async throws {
    let executable = try BuiltExecutables.url("serverbee-simulator")
    (process, url, controlToken) = try await offPool {
      try Self.launch(
        executable, port: port, data: data, servers: servers, extra: extra,
        environment: environment, launcher: launcher, standardError: standardError)
    }
  }

  /// Starts the process and reads its announcement, blocking (run it off the pool).
  private static func launch(
    _ executable: URL, port: Int, data: URL?, servers: Int, extra: [String],
    environment: [String: String], launcher: [String], standardError: URL?
  ) throws -> (
    Process, String, String
  ) {
    let process = Process()
    let arguments =
      [
        "--port", "\(port)", "--admin", "admin:admin-password", "--servers", "\(servers)",
        "--metrics-interval", "1",
      ] + (data.map { ["--data", $0.path] } ?? []) + extra
    if let program = launcher.first {
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = launcher.dropFirst() + [executable.path] + arguments
    } else {
      process.executableURL = executable
      process.arguments = arguments
    }
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let output = Pipe()
    process.standardOutput = output
    if let standardError {
      _ = FileManager.default.createFile(atPath: standardError.path, contents: nil)
      process.standardError = try FileHandle(forWritingTo: standardError)
    } else {
      process.standardError = FileHandle.nullDevice
    }
    process.standardInput = FileHandle.nullDevice
    try process.runUnderWatchdog()
    var line = Data()
    let deadline = Date().addingTimeInterval(30)
    while !line.contains(0x0A) {
      guard let chunk = output.read(until: deadline), !chunk.isEmpty else {
        process.endGroup()
        process.waitUntilExit()
        throw Failure(description: "serverbee-simulator printed no JSON line")
      }
      line.append(chunk)
    }
    struct Announcement: Decodable {
      var url: String
      var controlToken: String
      enum CodingKeys: String, CodingKey {
        case url
        case controlToken = "control_token"
      }
    }
    do {
      let announced = try JSONDecoder().decode(
        Announcement.self, from: line.prefix { $0 != 0x0A })
      return (process, announced.url, announced.controlToken)
    } catch {
      process.endGroup()
      process.waitUntilExit()
      throw error
    }
  }

  deinit {
    terminate()
    heldPort.withLock { descriptor in
      if descriptor >= 0 { close(descriptor) }
    }
  }

  /// The port it listens on.
  var port: Int { Int(url.split(separator: ":").last ?? "") ?? 0 }

  /// Stops the process and its group (SIGTERM, SIGKILL after a grace period), then waits off
  /// the pool. Idempotent.
  ///
  /// By default the port then stays bound, without a listener, for as long as this object
  /// lives: a client is refused at once, as by a server that is down, and no simulator of a
  /// test running alongside can be given the port and answer in its place (it happened: a
  /// stopped simulator's port answered `Unauthorized` from another test's simulator).
  /// - Parameter releasingPort: Let the port go, for a restart on the same port.
  func stop(releasingPort: Bool = false) async {
    terminate()
    await process.exited()
    if !releasingPort { holdPort() }
  }

  /// Binds 127.0.0.1 at ``port`` without listening (SO_REUSEADDR, so connections of the
  /// stopped process waiting in TIME_WAIT do not stand in the way). Best effort: when the port
  /// is already someone else's, nothing is held.
  private func holdPort() {
    heldPort.withLock { descriptor in
      guard descriptor < 0, port > 0 else { return }
      #if canImport(Glibc)
        let stream = Int32(SOCK_STREAM.rawValue)
      #else
        let stream = SOCK_STREAM
      #endif
      let socketDescriptor = socket(AF_INET, stream, 0)
      guard socketDescriptor >= 0 else { return }
      var yes: Int32 = 1
      _ = setsockopt(
        socketDescriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port)).bigEndian
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let bound = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      if bound == 0 {
        descriptor = socketDescriptor
      } else {
        close(socketDescriptor)
      }
    }
  }

  /// Ends the process group without waiting (for `defer` and release): SIGTERM, then SIGKILL
  /// after a grace period. Idempotent.
  func terminate() {
    if process.isRunning { process.endGroup() }
  }

  /// Stops the simulator and its watchdog (SIGSTOP to the group) without closing its sockets:
  /// connections are accepted by the kernel and requests wait unanswered until ``resume()``.
  func suspend() { process.signalGroup(SIGSTOP) }

  /// Continues what ``suspend()`` stopped.
  func resume() { process.signalGroup(SIGCONT) }

  /// Calls the control API with a JSON object body (none for a GET) and returns the decoded
  /// JSON object.
  func control(_ method: String, _ path: String, _ body: [String: Any] = [:]) async throws
    -> [String: Any]
  {
    guard let endpoint = URL(string: url + path) else {
      throw Failure(description: "bad URL \(url + path)")
    }
    var request = URLRequest(url: endpoint)
    request.httpMethod = method
    request.setValue(controlToken, forHTTPHeaderField: "X-Simulator-Token")
    if method != "GET" {
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
      request.httpBody = try JSONSerialization.data(withJSONObject: body)
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard (200..<300).contains(status) else {
      throw Failure(description: "\(method) \(path) answered \(status)")
    }
    if data.isEmpty { return [:] }
    return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
  }

  /// Creates a member and returns the QR payload of a fresh pairing code for them.
  func pairingPayload(username: String = "ada") async throws -> String {
    let user = try await control(
      "POST", "/__simulator/users", ["username": username, "password": "pw", "role": "member"])
    guard let id = user["id"] as? String else { throw Failure(description: "no user id") }
    let code = try await control("POST", "/__simulator/users/\(id)/pair-code")
    guard let text = code["qr_text"] as? String else { throw Failure(description: "no qr_text") }
    return text
  }
}
