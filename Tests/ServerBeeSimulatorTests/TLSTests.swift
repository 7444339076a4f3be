import Foundation
import ServerBeeTestHarness
import Testing

@testable import ServerBeeSimulator

/// HTTPS over loopback, checked with `openssl` (a peer nobody here wrote): a test CA and a leaf
/// for 127.0.0.1 made at test time, then `s_client` with that CA as its only trust anchor.
@Suite(.timeLimit(.minutes(5))) struct TLSTests {
  static func openssl(_ arguments: [String], input: String) async throws -> (Int32, String) {
    let result = try await Process.output(
      of: URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments, input: Data(input.utf8))
    return (result.status, result.text)
  }

  @Test func httpsServesRequestsWithTheGivenCertificate() async throws {
    let h = try Harness()
    let pki = try await TestPKI(subjectAltNames: "DNS:localhost,IP:127.0.0.1")
    let url = try h.simulator.start(
      tls: Simulator.TLSFiles(certificate: pki.leafCertificate, privateKey: pki.leafKey))
    defer { h.simulator.stop() }
    #expect(url.scheme == "https")
    let (status, output) = try await Self.openssl(
      [
        "s_client", "-connect", "127.0.0.1:\(url.port ?? 0)", "-CAfile", pki.caFile.path,
        "-verify_return_error", "-verify_ip", "127.0.0.1", "-quiet",
      ], input: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    #expect(status == 0)
    #expect(output.hasPrefix("HTTP/1.1 200 OK"))
    #expect(output.hasSuffix("\r\n\r\nok"))
  }
}
