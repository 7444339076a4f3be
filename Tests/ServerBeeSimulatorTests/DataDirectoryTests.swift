import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The data directory in process: one owner at a time, private modes, and the clock offset
/// kept across a restart. (`SimulatorExecutableTests` checks the same for the executable.)
@Suite(.timeLimit(.minutes(2))) struct DataDirectoryTests {
  static func mode(_ url: URL) -> Int? {
    var info = stat()
    guard stat(url.path, &info) == 0 else { return nil }
    return Int(info.st_mode & 0o777)
  }

  static func scratch() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("sim-dir-\(UUID())")
  }

  @Test func aSecondSimulatorOnTheSameDirectoryFailsWithoutTouchingIt() async throws {
    let directory = Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let h = try Harness(directory: directory, keepDirectory: true)
    await h.user("admin")
    let before = try h.simulator.core.db.scalar("SELECT COUNT(*) FROM users").int
    let error = #expect(throws: ServerBeeSimulatorError.self) {
      _ = try Simulator(configuration: .init(dataDirectory: directory))
    }
    #expect(error?.code == .dataDirectoryInUse)
    #expect(
      error?.message
        == "\(directory.path) is in use by another simulator (pid \(getpid()))")
    #expect(try h.simulator.core.db.scalar("SELECT COUNT(*) FROM users").int == before)
    #expect(await h.send(.get, "/healthz").status == 200, "the owner still serves")
  }

  @Test func aStoppedSimulatorReleasesTheDirectoryForARestart() async throws {
    let directory = Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = try Harness(directory: directory, keepDirectory: true)
    first.simulator.stop()
    let second = try Harness(directory: directory, keepDirectory: true)
    let error = #expect(throws: ServerBeeSimulatorError.self) {
      _ = try first.simulator.start()
    }
    #expect(error?.code == .dataDirectoryInUse, "the stopped one cannot take it back")
    second.simulator.stop()
  }

  @Test func everyFileIsPrivateInAPrivateDirectory() async throws {
    let parent = Self.scratch()
    defer { try? FileManager.default.removeItem(at: parent) }
    let directory = parent.appendingPathComponent("nested/data")
    let h = try Harness(directory: directory, keepDirectory: true)
    await h.user("admin")  // a write, so the WAL and its index exist
    #expect(Self.mode(directory) == 0o700)
    for name in [
      "simulator.sqlite", "simulator.sqlite-wal", "simulator.sqlite-shm", "simulator.lock",
    ] {
      #expect(Self.mode(directory.appendingPathComponent(name)) == 0o600, "\(name)")
    }
  }

  @Test func anOlderDirectoryWithOpenModesIsTightened() async throws {
    let directory = Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      let h = try Harness(directory: directory, keepDirectory: true)
      await h.user("admin")
    }
    // As an earlier simulator left it: umask 022 modes.
    #expect(chmod(directory.path, 0o755) == 0)
    for name in ["simulator.sqlite", "simulator.lock"] {
      #expect(chmod(directory.appendingPathComponent(name).path, 0o644) == 0)
    }
    let h = try Harness(directory: directory, keepDirectory: true)
    await h.user("ada")
    #expect(Self.mode(directory) == 0o700)
    for name in [
      "simulator.sqlite", "simulator.sqlite-wal", "simulator.sqlite-shm", "simulator.lock",
    ] {
      #expect(Self.mode(directory.appendingPathComponent(name)) == 0o600, "\(name)")
    }
  }

  @Test func theDefaultTemporaryDirectoryIsPrivateToo() async throws {
    var configuration = Simulator.Configuration()
    configuration.metricsInterval = nil
    let directory = configuration.dataDirectory
    defer { try? FileManager.default.removeItem(at: directory) }
    let simulator = try Simulator(configuration: configuration)
    defer { simulator.stop() }
    _ = try simulator.createUser(username: "admin", password: "pw", role: "admin")
    #expect(Self.mode(directory) == 0o700)
    #expect(Self.mode(directory.appendingPathComponent("simulator.sqlite")) == 0o600)
    #expect(Self.mode(directory.appendingPathComponent("simulator.sqlite-wal")) == 0o600)
  }

  @Test func theTemporaryDirectoryGoesWithTheSimulatorThatMadeItUp() async throws {
    var configuration = Simulator.Configuration()
    configuration.metricsInterval = nil
    let directory = configuration.dataDirectory
    var simulator: Simulator? = try Simulator(configuration: configuration)
    _ = try simulator?.start()
    _ = try simulator?.createUser(username: "admin", password: "pw", role: "admin")
    #expect(FileManager.default.fileExists(atPath: directory.path))
    simulator?.stop()
    #expect(FileManager.default.fileExists(atPath: directory.path), "a stop keeps it")
    simulator = nil
    #expect(!FileManager.default.fileExists(atPath: directory.path))
  }

  @Test func aDirectoryGivenByTheCallerIsNeverRemoved() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "kept-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    var configuration = Simulator.Configuration(dataDirectory: directory)
    configuration.metricsInterval = nil
    var simulator: Simulator? = try Simulator(configuration: configuration)
    _ = try simulator?.createUser(username: "admin", password: "pw", role: "admin")
    simulator = nil
    #expect(FileManager.default.fileExists(atPath: directory.path))
  }

  @Test func theClockOffsetSurvivesARestart() async throws {
    let directory = Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    do {
      let h = try Harness(directory: directory, keepDirectory: true, start: start)
      let now = await h.control(.post, "/clock/advance", ["seconds": 3600])?["now"]
      #expect(now?.stringValue == "2027-01-15T09:00:00Z")
      h.clock.advance(by: 60)  // in process, the same
    }
    let restarted = try Harness(directory: directory, keepDirectory: true, start: start)
    #expect(restarted.clock.now == start.addingTimeInterval(3660))
    let now = await restarted.control(.post, "/clock/advance", ["seconds": 0])?["now"]
    #expect(now?.stringValue == "2027-01-15T09:01:00Z")
  }

  @Test func aClockSharedWithThePreviousRunIsNotAdvancedTwice() async throws {
    let directory = Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let clock = SimulatorClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    do {
      let h = try Harness(directory: directory, keepDirectory: true, clock: clock)
      h.clock.advance(by: 100)
    }
    _ = try Harness(directory: directory, keepDirectory: true, clock: clock)
    #expect(clock.offset == 100)
  }
}
