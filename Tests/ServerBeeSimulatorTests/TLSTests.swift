import Foundation
import ServerBeeTestSupport
import Testing

@testable import ServerBeeSimulator

/// HTTPS over loopback, checked with `openssl` (a peer nobody here wrote): a test CA and a leaf
/// for 127.0.0.1 made at test time, then `s_client` with that CA as its only trust anchor.
@Suite(.timeLimit(.minutes(1))) struct TLSTests {
  @discardableResult
  static func openssl(_ arguments: [String], input: String = "") throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["openssl"] + arguments
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try? stdin.fileHandleForWriting.close()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }

  @Test func httpsServesRequestsWithTheGivenCertificate() async throws {
    let h = try Harness()
    let pki = try await TestPKI(subjectAltNames: "DNS:localhost,IP:127.0.0.1")
    let url = try h.simulator.start(
      tls: Simulator.TLSFiles(certificate: pki.leafCertificate, privateKey: pki.leafKey))
    defer { h.simulator.stop() }
    #expect(url.scheme == "https")
    let (status, output) = try Self.openssl(
      [
        "s_client", "-connect", "127.0.0.1:\(url.port ?? 0)", "-CAfile", pki.caFile.path,
        "-verify_return_error", "-verify_ip", "127.0.0.1", "-quiet",
      ], input: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    #expect(status == 0)
    #expect(output.hasPrefix("HTTP/1.1 200 OK"))
    #expect(output.hasSuffix("\r\n\r\nok"))
  }
}
