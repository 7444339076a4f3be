import Foundation
import ServerBeeTestHarness

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A running `serverbee-relay` child process with local devices, and its control API.
///
/// Like ``SimulatorProcess`` it runs under the test watchdog in a process group of its own and
/// is stopped by ``stop()`` or on release, so no relay outlives its test.
final class RelayProcess: Sendable {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The base URL it printed, `http://127.0.0.1:<port>`.
  let url: String
  /// The control token (`X-Relay-Token`).
  let controlToken: String
  private let process: Process

  /// Starts the relay and waits for its JSON line.
  /// - Parameters:
  ///   - port: The port; 0 picks one. A port just freed may take a moment to be usable again,
  ///     so a taken port is retried for a few seconds.
  ///   - extra: More options, for example `--tls-cert` and `--tls-key`.
  /// - Throws: ``Failure`` when it does not announce itself.
  init(port: Int = 0, extra: [String] = []) async throws {
    let executable = try BuiltExecutables.url("serverbee-relay")
    let deadline = Date().addingTimeInterval(10)
    while true {
      do {
        (process, url, controlToken) = try await offPool {
          try Self.launch(executable, port, extra)
        }
        return
      } catch let failure as Failure where port != 0 && Date() < deadline {
        _ = failure
        try await Task.sleep(for: .milliseconds(100))
      }
    }
  }

  private static func launch(_ executable: URL, _ port: Int, _ extra: [String]) throws -> (
    Process, String, String
  ) {
    let process = Process()
    process.executableURL = executable
    process.arguments =
      [
        "--port", "\(port)", "--provider", "devices", "--control-token", "relay-control",
      ] + extra
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.runUnderWatchdog()
    var line = Data()
    let deadline = Date().addingTimeInterval(30)
    while !line.contains(0x0A) {
      guard let chunk = output.read(until: deadline), !chunk.isEmpty else {
        process.endGroup()
        process.waitUntilExit()
        throw Failure(description: "serverbee-relay printed no JSON line")
      }
      line.append(chunk)
    }
    guard
      let object = try? JSONSerialization.jsonObject(with: line.prefix { $0 != 0x0A })
        as? [String: Any],
      let url = object["url"] as? String, let token = object["control_token"] as? String
    else {
      process.endGroup()
      process.waitUntilExit()
      throw Failure(description: "serverbee-relay printed an unreadable line")
    }
    return (process, url, token)
  }

  deinit { terminate() }

  /// The port it listens on.
  var port: Int { Int(url.split(separator: ":").last ?? "") ?? 0 }

  /// Stops the process group and waits for it. Idempotent.
  func stop() async {
    terminate()
    await process.exited()
  }

  /// Ends the process group without waiting. Idempotent.
  func terminate() {
    if process.isRunning { process.endGroup() }
  }

  /// The local devices the relay knows (`GET /__relay/devices`).
  func devices() async throws -> [[String: Any]] {
    guard let endpoint = URL(string: url + "/__relay/devices") else {
      throw Failure(description: "bad URL \(url)")
    }
    var request = URLRequest(url: endpoint)
    request.setValue(controlToken, forHTTPHeaderField: "X-Relay-Token")
    let (data, _) = try await URLSession.shared.data(for: request)
    return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
  }

  /// Waits (bounded) until a device is online at the relay.
  func waitForOnlineDevice(seconds: Double = 30) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if try await devices().contains(where: { $0["online"] as? Bool == true }) { return }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw Failure(description: "no device came online at the relay within \(seconds) s")
  }
}
