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

  /// Issues a second leaf for the same names and key, signed by the same CA, that expired in
  /// 2020 (valid 1–2 January 2020), and returns its PEM file.
  package func expiredLeaf() async throws -> URL {
    let path = url.path
    try Data("01\n".utf8).write(to: url.appendingPathComponent("serial"))
    try Data().write(to: url.appendingPathComponent("index.txt"))
    try Data(
      """
      [ca]
      default_ca = test
      [test]
      database = \(path)/index.txt
      new_certs_dir = \(path)
      serial = \(path)/serial
      default_md = sha256
      policy = any
      [any]
      commonName = supplied

      """.utf8
    ).write(to: url.appendingPathComponent("ca.cnf"))
    let expired = url.appendingPathComponent("expired-leaf.pem")
    try await Self.openssl([
      "ca", "-batch", "-config", "\(path)/ca.cnf", "-cert", caFile.path, "-keyfile",
      "\(path)/ca.key", "-in", "\(path)/leaf.csr", "-out", expired.path, "-startdate",
      "20200101000000Z", "-enddate", "20200102000000Z", "-extfile", "\(path)/leaf.ext", "-notext",
    ])
    return expired
  }

  /// Starts `openssl s_server -www` on 127.0.0.1 and returns it with its port.
  /// - Parameter certificate: The certificate to serve (with the leaf's key); the leaf by default.
  /// - Returns: The running server and the port it accepts on.
  /// - Throws: `PeerError` when `openssl` cannot start or never reports its port.
  package func startOpenSSLServer(certificate: URL? = nil) async throws -> (PeerProcess, Int) {
    let server = try PeerProcess(
      "openssl",
      [
        "s_server", "-accept", "127.0.0.1:0", "-cert", (certificate ?? leafCertificate).path,
        "-key", leafKey.path, "-www",
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
