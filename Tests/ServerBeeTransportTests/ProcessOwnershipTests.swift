import Foundation
import ServerBeeTestHarness
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The processes tests start end with their test: by process group, and through the watchdog
/// when the process that started them dies (`Process.endGroup(grace:)`,
/// `Process.runUnderWatchdog()`).
@Suite(.timeLimit(.minutes(5))) struct ProcessOwnershipTests {
  /// Waits (off the pool) until `pid` no longer exists, for at most 20 s.
  func ends(_ pid: pid_t) async throws -> Bool {
    try await offPool {
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline {
        if kill(pid, 0) != 0 && errno == ESRCH { return true }
        // A zombie of an exited child still answers kill(0); it is gone all the same.
        if let state = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          state.split(separator: ")").last?.split(separator: " ").first == "Z"
        {
          return true
        }
        usleep(20_000)
      }
      return false
    }
  }

  /// Starts `sh -c script` (under the watchdog when asked) and reads the pid it prints first.
  func start(_ script: String, watchdog: Bool) async throws -> (Process, pid_t, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    if watchdog { try process.runUnderWatchdog() } else { try process.run() }
    let line = try await offPool { () -> String in
      var bytes: [UInt8] = []
      while let byte = output.fileHandleForReading.readData(ofLength: 1).first, byte != 0x0A {
        bytes.append(byte)
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    let pid = try #require(pid_t(line), "the script printed \(line.debugDescription)")
    return (process, pid, output)
  }

  @Test func endingTheGroupEndsTheChildAndWhatItStarted() async throws {
    let (process, grandchild, _) = try await start(
      "sleep 300 & echo $!; wait", watchdog: true)
    #expect(kill(grandchild, 0) == 0, "the grandchild runs")
    process.endGroup()
    await process.exited()
    #expect(try await ends(grandchild))
  }

  @Test func aGroupThatIgnoresSIGTERMIsKilledAfterTheGracePeriod() async throws {
    let (process, grandchild, _) = try await start(
      "trap '' TERM; sleep 300 & echo $!; wait", watchdog: false)
    process.endGroup(grace: .milliseconds(300))
    await process.exited()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == SIGKILL)
    #expect(try await ends(grandchild))
  }

  @Test func theWatchdogEndsItsChildWhenTheProcessThatStartedItDies() async throws {
    // The shell starts the watchdog in the background, prints the watchdog's pid and exits
    // without ending it, as a crashing test process would.
    let script = "python3 -c \"$1\" $$ sleep 300 </dev/null >/dev/null 2>&1 & echo $!"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script, "sh", processWatchdog]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    await process.exited()
    let text = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    let watchdog = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    #expect(try await ends(watchdog), "the watchdog ended its child and then itself")
  }

  @Test func theWatchdogReportsTheChildsStatus() async throws {
    let exited = Process()
    exited.executableURL = URL(fileURLWithPath: "/bin/sh")
    exited.arguments = ["-c", "exit 7"]
    try exited.runUnderWatchdog()
    await exited.exited()
    #expect(exited.terminationReason == .exit && exited.terminationStatus == 7)

    let signalled = Process()
    signalled.executableURL = URL(fileURLWithPath: "/bin/sh")
    signalled.arguments = ["-c", "kill -TERM $$"]
    try signalled.runUnderWatchdog()
    await signalled.exited()
    #expect(signalled.terminationStatus == 128 + SIGTERM)
  }

  @Test func endingAProcessThatNeverStartedSignalsNothing() {
    // processIdentifier is 0 before run(): kill(0) or kill(-0) would signal the test's own group.
    Process().endGroup()
    Process().signalGroup(SIGKILL)
  }
}
