import Foundation
import ServerBeeTestHarness
import Testing

/// A self-hosted server with a private CA: `SERVERBEE_CA_FILE` makes `serverbee` trust it for
/// HTTP and the live stream (the native stack on Linux), and without it the failure says the
/// certificate is not trusted.
@Suite(.timeLimit(.minutes(5))) struct CommandLineTLSTests {
  @Test func aPrivateCAIsTrustedThroughTheEnvironmentAndNamedWhenItIsNot() async throws {
    let temporary = try TemporaryDirectory()
    let pki = try await TestPKI(subjectAltNames: "IP:127.0.0.1")
    let simulator = try await SimulatorProcess(
      data: temporary.url.appendingPathComponent("data"), servers: 2,
      extra: [
        "--tls-cert", pki.leafCertificate.path, "--tls-key", pki.leafKey.path,
      ])
    defer { simulator.terminate() }
    #expect(simulator.url.hasPrefix("https://127.0.0.1:"))
    let login = [
      "login", "--server", simulator.url, "--username", "admin", "--password", "admin-password",
    ]
    let untrusted = try await ChildProcess.run(
      try BuiltExecutables.url("serverbee"),
      ["--home", temporary.url.appendingPathComponent("a").path] + login,
      scratch: temporary.url)
    #expect(untrusted.status == 1)
    #expect(untrusted.stderr.contains("not trusted"), "\(untrusted.stderr)")
    let home = temporary.url.appendingPathComponent("b").path
    let trusted = try await ChildProcess.run(
      try BuiltExecutables.url("serverbee"), ["--home", home] + login, scratch: temporary.url,
      environment: ["SERVERBEE_CA_FILE": pki.caFile.path])
    #expect(trusted.status == 0, "\(trusted.stderr)")
    let servers = try await ChildProcess.run(
      try BuiltExecutables.url("serverbee"), ["--home", home, "servers", "--json"],
      scratch: temporary.url, environment: ["SERVERBEE_CA_FILE": pki.caFile.path])
    #expect(servers.status == 0, "\(servers.stderr)")
    #expect(servers.stdout.contains("server-1"))
  }
}
