import Foundation
import ServerBeeTestHarness
import Testing

/// A self-hosted server or relay with a private CA: `SERVERBEE_CA_FILE` makes `serverbee` trust
/// it for HTTP, the live stream and the relay's device stream (the native stack on Linux), and
/// without it the failure says the certificate is not trusted.
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

  /// `push listen` connects with the session's transports: a relay behind the private CA is
  /// trusted through the same variable (it was not: the listener built its own WebSocket).
  @Test func theRelaysDeviceStreamTrustsThePrivateCAToo() async throws {
    let temporary = try TemporaryDirectory()
    let pki = try await TestPKI(subjectAltNames: "IP:127.0.0.1")
    let simulator = try await SimulatorProcess(data: temporary.url.appendingPathComponent("data"))
    defer { simulator.terminate() }
    let relay = try await RelayProcess(
      extra: ["--tls-cert", pki.leafCertificate.path, "--tls-key", pki.leafKey.path])
    defer { relay.terminate() }
    #expect(relay.url.hasPrefix("https://127.0.0.1:"))
    let home = temporary.url.appendingPathComponent("home").path
    let trust = ["SERVERBEE_CA_FILE": pki.caFile.path]
    let serverbee = try BuiltExecutables.url("serverbee")
    let login = try await ChildProcess.run(
      serverbee,
      [
        "--home", home, "login", "--server", simulator.url, "--username", "admin",
        "--password", "admin-password",
      ], scratch: temporary.url)
    #expect(login.status == 0, "\(login.stderr)")
    let listen = ["--home", home, "push", "listen", "--relay", relay.url, "--duration", "1"]
    // The relay issues the token over HTTPS, then the device stream opens over WSS.
    let trusted = try await ChildProcess.run(
      serverbee, listen, scratch: temporary.url, environment: trust)
    #expect(trusted.status == 0, "\(trusted.stderr)")
    #expect(trusted.stderr.contains("listening for pushes from \(relay.url)"), "\(trusted.stderr)")
    let untrusted = try await ChildProcess.run(serverbee, listen, scratch: temporary.url)
    #expect(untrusted.status == 1)
    #expect(untrusted.stderr.contains("is not trusted"), "\(untrusted.stderr)")
  }
}
