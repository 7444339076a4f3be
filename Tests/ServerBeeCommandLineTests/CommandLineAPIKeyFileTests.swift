import Foundation
import ServerBeeTestHarness
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `account api-keys create` never leaves an empty or half-written key file, and a
/// file already at the path is explained: which file, what it holds, what to do.
@Suite(.timeLimit(.minutes(5))) struct CommandLineAPIKeyFileTests {
  private func signIn(_ simulator: SimulatorProcess, home: URL) async throws {
    let login = try await serverbee(
      [
        "login", "--server", simulator.url, "--username", "admin", "--password",
        "admin-password",
      ], home: home)
    #expect(login.status == 0, "\(login.stderr)")
  }

  @Test func anEmptyFileAtThePathIsNamedWithTheKeyNobodyMayHold() async throws {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    try await signIn(simulator, home: home)
    // A key named grafana on the server, as an interrupted create leaves it.
    let orphan = temporary.url.appendingPathComponent("elsewhere.key").path
    #expect(
      try await serverbee(
        ["account", "api-keys", "create", "grafana", "--output", orphan], home: home
      )
      .status == 0)
    let keys = try JSONSerialization.jsonObject(
      with: Data(try await serverbee(["account", "api-keys", "--json"], home: home).stdout.utf8))
    let id = try #require(((keys as? [[String: Any]])?.first)?["id"] as? String)

    let empty = temporary.url.appendingPathComponent("grafana.key").path
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    let refused = try await serverbee(
      ["account", "api-keys", "create", "grafana", "--output", empty], home: home)
    #expect(refused.status == 1)
    #expect(refused.stderrLines.count == 1, "\(refused.stderr)")
    #expect(
      refused.stderr.hasPrefix(
        "serverbee: \(empty) already exists and is empty, as a create interrupted before it "
          + "saved its key leaves it: delete it and run the command again. If that create "
          + "reached the server, nobody holds its key: the API key 'grafana' (serverbee_"),
      "\(refused.stderr)")
    #expect(
      refused.stderr.hasSuffix(
        "may be it; 'serverbee account api-keys delete \(id)' removes it\n"), "\(refused.stderr)")
    // Nothing was created for it.
    let after = try await serverbee(["account", "api-keys", "--json"], home: home)
    #expect(after.stdout.components(separatedBy: #""name":"grafana""#).count == 2)
  }

  @Test func aCreateKilledBeforeTheKeyArrivedLeavesNoFileAtThePathAndIsExplainedNextTime()
    async throws
  {
    let temporary = try TemporaryDirectory()
    let home = temporary.url.appendingPathComponent("home")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer {
      simulator.resume()
      simulator.terminate()
    }
    try await signIn(simulator, home: home)
    let directory = temporary.url.appendingPathComponent("keys")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let keyFile = directory.appendingPathComponent("grafana.key").path

    // The server stops answering, the create waits for it, and is killed there.
    simulator.suspend()
    let child = Process()
    child.executableURL = try BuiltExecutables.url("serverbee")
    child.arguments = [
      "--home", home.path, "account", "api-keys", "create", "grafana", "--output", keyFile,
    ]
    child.standardOutput = FileHandle.nullDevice
    child.standardError = FileHandle.nullDevice
    child.standardInput = FileHandle.nullDevice
    try child.run()
    let deadline = Date().addingTimeInterval(60)
    var partial: String?
    while partial == nil, Date() < deadline {
      partial = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .first { $0.hasPrefix(".grafana.key.partial-") }
      if partial == nil { try await Task.sleep(for: .milliseconds(50)) }
    }
    kill(child.processIdentifier, SIGKILL)
    child.waitUntilExit()
    #expect(partial != nil, "the key goes to a temporary file first")
    #expect(!FileManager.default.fileExists(atPath: keyFile), "no empty file at the path")
    simulator.resume()

    // The next create removes the empty leftover, says which key nobody may hold, and works.
    let again = try await serverbee(
      ["account", "api-keys", "create", "grafana", "--output", keyFile], home: home)
    #expect(again.status == 0, "\(again.stderr)")
    let note = try #require(again.stderrLines.first.map(String.init))
    #expect(note.hasPrefix("removed \(directory.path)/.grafana.key.partial-"), "\(note)")
    #expect(note.contains("left empty by an interrupted create. If that create reached the server"))
    let key = try String(contentsOfFile: keyFile, encoding: .utf8)
    #expect(key.hasPrefix("serverbee_") && key.hasSuffix("\n"))
    #expect(!again.stderr.contains(key.trimmingCharacters(in: .whitespacesAndNewlines)))
    let mode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions]
    #expect((mode as? NSNumber)?.intValue == 0o600)
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(left == ["grafana.key"], "no temporary file stays")
  }
}
