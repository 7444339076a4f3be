import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import Testing

@testable import ServerBeeCommandLine

/// `open` and `push decrypt` read at most the payload cap plus a margin, from any source.
@Suite(.timeLimit(.minutes(5))) struct PayloadInputTests {
  private func tooLargeCode(_ body: () throws -> Data) -> CommandLineError.Code? {
    do {
      _ = try body()
      return nil
    } catch let error as CommandLineError {
      #expect(error.message == "the payload is larger than \(PayloadInput.readLimit) bytes")
      return error.code
    } catch {
      return nil
    }
  }

  @Test func theLimitIsTheSDKCapPlusTheMargin() {
    #expect(PayloadInput.readLimit == 8192 + PayloadInput.margin)
    #expect(PayloadInput.margin > 0 && PayloadInput.margin <= 4096)
  }

  @Test func aFileUpToTheLimitIsReadWhole() throws {
    let temporary = try TemporaryDirectory()
    let file = temporary.url.appendingPathComponent("payload.json")
    let bytes = Data(repeating: 0x7B, count: PayloadInput.readLimit)
    try bytes.write(to: file)
    #expect(try PayloadInput.read(file.path) == bytes)
  }

  @Test func aFileLargerThanTheLimitIsRefused() throws {
    let temporary = try TemporaryDirectory()
    let file = temporary.url.appendingPathComponent("payload.json")
    try Data(repeating: 0x20, count: PayloadInput.readLimit + 1).write(to: file)
    #expect(tooLargeCode { try PayloadInput.read(file.path) } == .payloadTooLarge)
  }

  @Test func aPipeLargerThanTheLimitIsRefusedAfterTheLimitPlusOneByte() throws {
    let pipe = Pipe()
    // 20 KiB fits the pipe's buffer, so the write completes before anything is read.
    let written = 20 * 1024
    try pipe.fileHandleForWriting.write(contentsOf: Data(repeating: 0x41, count: written))
    try pipe.fileHandleForWriting.close()
    #expect(
      tooLargeCode {
        try PayloadInput.read(from: pipe.fileHandleForReading, named: "standard input")
      } == .payloadTooLarge)
    // What is left in the pipe shows where reading stopped.
    let rest = try pipe.fileHandleForReading.readToEnd() ?? Data()
    #expect(rest.count == written - (PayloadInput.readLimit + 1))
  }

  @Test func anEndlessDeviceIsRefused() throws {
    #expect(tooLargeCode { try PayloadInput.read("/dev/zero") } == .payloadTooLarge)
  }

  @Test func aMissingFileIsAUsageError() {
    #expect(throws: CommandLineError.self) { try PayloadInput.read("/nonexistent/payload.json") }
  }

  // MARK: End to end

  private func serverbee(_ arguments: [String], input: URL? = nil) async throws -> RunResult {
    let temporary = try TemporaryDirectory()
    return try await ChildProcess.run(
      try BuiltExecutables.url("serverbee"),
      ["--home", temporary.url.appendingPathComponent("home").path] + arguments,
      scratch: temporary.url, input: input)
  }

  @Test func openOfAnEndlessDeviceEndsWithOneLine() async throws {
    let result = try await serverbee(["open", "/dev/zero"])
    #expect(result.status == 1)
    #expect(
      result.stderr == "serverbee: the payload is larger than \(PayloadInput.readLimit) bytes\n")
  }

  @Test func pushDecryptOfAnEndlessStandardInputEndsWithOneLine() async throws {
    let result = try await serverbee(
      ["push", "decrypt", "-"], input: URL(fileURLWithPath: "/dev/zero"))
    #expect(result.status == 1)
    #expect(
      result.stderr == "serverbee: the payload is larger than \(PayloadInput.readLimit) bytes\n")
    #expect(result.stdout.isEmpty)
  }
}
