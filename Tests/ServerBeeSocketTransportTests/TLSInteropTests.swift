import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import Testing

@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

/// TLS against `openssl s_server` and a TLS Python `websockets` server, with a CA and leaf
/// created at test time. `s_server -www` answers the upgrade with HTTP 200, so reaching
/// `upgradeRejected` with status 200 proves the TLS handshake and verification succeeded.
@Suite(.timeLimit(.minutes(5))) struct TLSInteropTests {
  let pki: TestPKI

  init() async throws { pki = try await TestPKI() }

  func connect(host: String, port: Int, trust: TLSTrust, path: String = "/") async throws
    -> any WebSocketConnection
  {
    let transport = SocketWebSocketTransport(
      configuration: .init(pingInterval: nil, tls: trust), clock: ContinuousClock())
    return try await transport.connect(
      to: try #require(URL(string: "wss://\(host):\(port)\(path)")), headers: [:])
  }

  func connectError(host: String = "localhost", trust: TLSTrust, certificate: URL? = nil)
    async throws -> ServerBeeTransportError?
  {
    let (server, port) = try await pki.startOpenSSLServer(certificate: certificate)
    defer { withExtendedLifetime(server) {} }
    do {
      _ = try await connect(host: host, port: port, trust: trust)
      return nil
    } catch let error as ServerBeeTransportError {
      return error
    }
  }

  @Test func trustedCAPassesTLSAndReachesHTTP() async throws {
    let error = try await connectError(trust: TLSTrust(additionalCAFile: pki.caFile))
    #expect(error?.code == .upgradeRejected)
    #expect(error?.httpStatus == 200)
  }

  @Test func wssEchoWorksAgainstPythonWebsocketsOverTLS() async throws {
    let peer = try await PeerProcess.python(
      "ws_server_peer.py", ["--tls", pki.leafCertificate.path, pki.leafKey.path])
    let port = Int(try await peer.port())
    let connection = try await connect(
      host: "localhost", port: port, trust: TLSTrust(additionalCAFile: pki.caFile), path: "/echo")
    var iterator = connection.inbound.makeAsyncIterator()
    let blob = Data((0..<(1024 * 1024 + 7)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    try await connection.send(.binary(blob))
    #expect(try await iterator.next() == .binary(blob))
    try await connection.send(.text("over tls"))
    #expect(try await iterator.next() == .text("over tls"))
    await connection.close(code: .normalClosure, reason: nil)
    #expect(try await iterator.next() == nil)
    withExtendedLifetime(peer) {}
  }

  @Test func unknownCAIsUntrusted() async throws {
    let error = try await connectError(trust: TLSTrust(additionalCAFile: pki.otherCAFile))
    #expect(error?.code == .tlsUntrustedCertificate)
  }

  @Test func systemStoreAloneDoesNotTrustThePrivateCA() async throws {
    let error = try await connectError(trust: TLSTrust())
    #expect(error?.code == .tlsUntrustedCertificate)
  }

  @Test func wrongHostnameIsAMismatch() async throws {
    let error = try await connectError(
      host: "127.0.0.1", trust: TLSTrust(additionalCAFile: pki.caFile))
    #expect(error?.code == .tlsHostnameMismatch)
  }

  @Test func anExpiredLeafIsItsOwnError() async throws {
    let error = try await connectError(
      trust: TLSTrust(additionalCAFile: pki.caFile), certificate: try await pki.expiredLeaf())
    #expect(error?.code == .tlsCertificateExpired)
  }

  @Test func pinMismatchIsRejectedEvenWhenTheChainIsTrusted() async throws {
    let wrongPin = Data(repeating: 0xAB, count: 32)
    let error = try await connectError(
      trust: TLSTrust(additionalCAFile: pki.caFile, certificateSHA256Pins: [wrongPin]))
    #expect(error?.code == .tlsPinMismatch)
  }

  @Test func matchingPinTrustsALeafWithoutItsCA() async throws {
    let pin = try #require(TLSTrust.fingerprint(hex: try await pki.leafFingerprint()))
    let error = try await connectError(trust: TLSTrust(certificateSHA256Pins: [pin]))
    #expect(error?.code == .upgradeRejected)
    let wrongHost = try await connectError(
      host: "127.0.0.1", trust: TLSTrust(certificateSHA256Pins: [pin]))
    #expect(wrongHost?.code == .tlsHostnameMismatch)
  }

  @Test func fingerprintParsingAcceptsColonsAndRejectsOtherLengths() {
    let hex = String(repeating: "AB:", count: 31) + "CD"
    #expect(TLSTrust.fingerprint(hex: hex) == Data(repeating: 0xAB, count: 31) + Data([0xCD]))
    #expect(TLSTrust.fingerprint(hex: "AB:CD") == nil)
    #expect(TLSTrust.fingerprint(hex: String(repeating: "zz", count: 32)) == nil)
  }
}
