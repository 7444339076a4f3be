import Foundation
import ServerBeeModels
import ServerBeeSocketTransport
import ServerBeeTestHarness
import ServerBeeTransport
import Testing

/// `serverbee-simulator` under a low descriptor limit: every WebSocket client gets its
/// `full_sync` or a `503`, none is left with a `101` and silence, and stderr says why in one line.
/// (`prlimit` is util-linux's, an essential Debian package: the test never skips.)
@Suite(.timeLimit(.minutes(5)))
struct SimulatorDescriptorLimitTests {
  enum Outcome: Hashable {
    case frame
    case refused
    case other(String)
  }

  @Test func clientsPastTheDescriptorBudgetGet503AndOneLogLine() async throws {
    let temporary = try TemporaryDirectory()
    let log = temporary.url.appendingPathComponent("stderr")
    // 256 descriptors, soft and hard: room for (256 - 64) / 5 = 38 connections.
    let simulator = try await SimulatorProcess(
      data: nil, servers: 2, launcher: ["/usr/bin/prlimit", "--nofile=256:256", "--"],
      standardError: log)
    defer { simulator.terminate() }
    let user = try await simulator.control(
      "POST", "/__simulator/users", ["username": "load", "password": "pw", "role": "member"])
    let id = try #require(user["id"] as? String)
    let key = try #require(
      try await simulator.control("POST", "/__simulator/users/\(id)/api-key")["api_key"]
        as? String)
    let url = try #require(
      URL(
        string: simulator.url.replacingOccurrences(of: "http", with: "ws")
          + "/api/ws/servers"))
    let transport = SocketWebSocketTransport()
    let clients = 80
    let outcomes = await withTaskGroup(of: (Outcome, (any WebSocketConnection)?).self) { group in
      for _ in 0..<clients {
        group.addTask {
          do {
            let socket = try await transport.connect(to: url, headers: ["X-API-Key": key])
            for try await message in socket.inbound {
              if case .text(let text) = message, text.hasPrefix(#"{"type":"full_sync""#) {
                return (.frame, socket)  // kept open until every client has an outcome
              }
            }
            return (.other("closed without a frame"), nil)
          } catch let error as ServerBeeTransportError
            where error.code == .upgradeRejected && error.httpStatus == 503
          {
            return (.refused, nil)
          } catch {
            return (.other("\(error)"), nil)
          }
        }
      }
      var outcomes: [Outcome] = []
      var open: [any WebSocketConnection] = []
      for await (outcome, socket) in group {
        outcomes.append(outcome)
        if let socket { open.append(socket) }
      }
      for socket in open { await socket.close(code: .normalClosure, reason: nil) }
      return outcomes
    }
    let frames = outcomes.filter { $0 == .frame }.count
    let refused = outcomes.filter { $0 == .refused }.count
    #expect(frames + refused == clients, "\(outcomes.filter { $0 != .frame && $0 != .refused })")
    #expect(frames >= 30, "\(frames) of \(clients) got their full_sync")
    #expect(refused > 0)
    await simulator.stop()
    let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
    #expect(lines.contains { $0.contains("at most 38 connections (256 descriptors") })
    #expect(lines.filter { $0.contains("refusing") }.count == 1, "\(lines)")
  }
}
