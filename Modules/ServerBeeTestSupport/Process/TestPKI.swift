package import Foundation

/// A CA and a leaf certificate (for `localhost` by default), created with the `openssl` CLI in a
/// fresh temporary directory, plus an unrelated second CA. Immutable after init (hence `@unchecked Sendable`).
package final class TestPKI: @unchecked Sendable {
  package let directory: TemporaryDirectory
  package let url: URL
  package var caFile: URL { url.appendingPathComponent("ca.pem") }
  package var otherCAFile: URL { url.appendingPathComponent("other-ca.pem") }
  package var leafCertificate: URL { url.appendingPathComponent("leaf.pem") }
  package var leafKey: URL { url.appendingPathComponent("leaf.key") }

  /// - Parameter subjectAltNames: The leaf's names, as `openssl` writes them; by default only
  ///   `DNS:localhost`, so connecting to `127.0.0.1` is a hostname mismatch.
  /// - Throws: `PeerError` when `openssl` is missing or fails.
  package init(subjectAltNames: String = "DNS:localhost") async throws {
    let directory = try TemporaryDirectory()
    url = directory.url
    self.directory = directory
    let path = url.path
    try Data(
      "subjectAltName=\(subjectAltNames)\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
        .utf8
    )
    .write(to: url.appendingPathComponent("leaf.ext"))
    let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    for name in ["ca", "other-ca"] {
      try await Self.openssl(
        ["req", "-x509"] + ec + [
          "-keyout", "\(path)/\(name).key", "-out", "\(path)/\(name).pem", "-days", "2",
          "-subj", "/CN=ServerBeeKit Test \(name)",
          "-addext", "basicConstraints=critical,CA:TRUE",
          "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ])
    }
    try await Self.openssl(
      ["req"] + ec + [
        "-keyout", "\(path)/leaf.key", "-out", "\(path)/leaf.csr", "-subj", "/CN=localhost",
      ])
    try await Self.openssl([
      "x509", "-req", "-in", "\(path)/leaf.csr", "-CA", "\(path)/ca.pem", "-CAkey",
      "\(path)/ca.key", "-CAcreateserial", "-out", "\(path)/leaf.pem", "-days", "2",
      "-extfile", "\(path)/leaf.ext",
    ])
  }

  /// The leaf's SHA-256 fingerprint as `openssl x509 -fingerprint -sha256` prints it.
  package func leafFingerprint() async throws -> String {
    let output = try await Self.openssl([
      "x509", "-in", leafCertificate.path, "-noout", "-fingerprint", "-sha256",
    ])
    guard let equals = output.firstIndex(of: "=") else {
      throw PeerError("unexpected fingerprint output: \(output)")
    }
    return String(output[output.index(after: equals)...]).trimmingCharacters(
      in: .whitespacesAndNewlines)
  }

  /// Starts `openssl s_server -www` with the leaf on 127.0.0.1 and returns it with its port.
  package func startOpenSSLServer() async throws -> (PeerProcess, Int) {
    let server = try PeerProcess(
      "openssl",
      [
        "s_server", "-accept", "127.0.0.1:0", "-cert", leafCertificate.path, "-key", leafKey.path,
        "-www",
      ])
    while true {
      let line = try await server.readLine()
      if line.hasPrefix("ACCEPT"), let colon = line.lastIndex(of: ":"),
        let port = Int(line[line.index(after: colon)...])
      {
        return (server, port)
      }
    }
  }

  @discardableResult
  package static func openssl(_ arguments: [String]) async throws -> String {
    let process = try PeerProcess("openssl", arguments)
    let result = await process.finish()
    guard result.status == 0 else {
      throw PeerError("openssl \(arguments.first ?? "") failed: \(await process.errors())")
    }
    return result.output
  }
}
