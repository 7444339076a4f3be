import Foundation
import ServerBeeModels
import ServerBeeRelay
import ServerBeeTestHarness
import Testing

/// ES256 JWTs from a PKCS#8 P-256 key, verified by Python `cryptography`; every other kind of
/// key refused with a sentence that never holds the key.
@Suite(.timeLimit(.minutes(5))) struct APNsSigningKeyTests {
  static func key(_ arguments: [String], in directory: URL, named name: String) async throws
    -> String
  {
    let file = directory.appendingPathComponent(name)
    try await TestPKI.openssl(arguments + ["-out", file.path])
    return try String(contentsOf: file, encoding: .utf8)
  }

  /// 40 tokens (so both short and full-length `r`/`s` occur) verify with the public key.
  @Test func tokensVerifyWithPythonCryptography() async throws {
    let directory = try TemporaryDirectory()
    let pem = try await Self.key(
      ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"],
      in: directory.url, named: "key.p8")
    let keyFile = directory.url.appendingPathComponent("key.p8")
    let publicKey = directory.url.appendingPathComponent("public.pem")
    try await TestPKI.openssl(["pkey", "-in", keyFile.path, "-pubout", "-out", publicKey.path])
    let key = try APNsSigningKey(pem: pem, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
    let tokens = try (0..<40).map { try key.token(issuedAt: 1_765_000_000 + Int64($0)) }
    let list = directory.url.appendingPathComponent("tokens.txt")
    try Data(tokens.joined(separator: "\n").utf8).write(to: list)
    let script = """
      import base64, json, sys
      from cryptography.hazmat.primitives import hashes, serialization
      from cryptography.hazmat.primitives.asymmetric import ec
      from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
      d = lambda t: base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))
      key = serialization.load_pem_public_key(open(sys.argv[1], "rb").read())
      for i, token in enumerate(open(sys.argv[2]).read().split()):
          h, c, s = token.split(".")
          assert "=" not in token
          assert json.loads(d(h)) == {"alg": "ES256", "kid": "ABC123DEFG"}, d(h)
          assert json.loads(d(c)) == {"iss": "DEF123GHIJ", "iat": 1765000000 + i}, d(c)
          raw = d(s)
          assert len(raw) == 64
          sig = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
          key.verify(sig, (h + "." + c).encode(), ec.ECDSA(hashes.SHA256()))
      print("verified", i + 1)
      """
    let check = try PeerProcess("python3", ["-c", script, publicKey.path, list.path])
    let result = await check.finish()
    let errors = await check.errors()
    #expect(result.status == 0, "\(errors)")
    #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "verified 40")
    // The exact header and claims, in this order.
    let parts = tokens[0].split(separator: ".")
    #expect(parts[0] == "eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ")
    #expect(
      Base64URL.decode(String(parts[1])).map { String(decoding: $0, as: UTF8.self) }
        == #"{"iss":"DEF123GHIJ","iat":1765000000}"#)
  }

  @Test func refusesEveryOtherKey() async throws {
    let directory = try TemporaryDirectory()
    let sec1 = try await Self.key(
      ["ecparam", "-name", "prime256v1", "-genkey", "-noout"], in: directory.url, named: "sec1.pem")
    let p384 = try await Self.key(
      ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"], in: directory.url,
      named: "p384.p8")
    let rsa = try await Self.key(
      ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024"], in: directory.url,
      named: "rsa.p8")
    let garbage =
      "-----BEGIN PRIVATE KEY-----\nTUlHSGFzZWNyZXRrZXltYXRlcmlhbA==\n-----END PRIVATE KEY-----\n"
    let cases: [(String, String)] = [
      (sec1, "not a PKCS#8"), (p384, "not a P-256"), (rsa, "not a P-256"),
      (garbage, "does not parse"), ("", "not a PKCS#8"),
    ]
    for (pem, expected) in cases {
      do {
        _ = try APNsSigningKey(pem: pem, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        Issue.record("accepted a key that should be refused (\(expected))")
      } catch let error as ServerBeeRelayError {
        #expect(error.code == .invalidSigningKey)
        #expect(error.message.contains(expected), "\(error.message)")
        for line in pem.split(separator: "\n") where !line.hasPrefix("-----") {
          #expect(!error.message.contains(line))
        }
      }
    }
    let good = try await Self.key(
      ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], in: directory.url,
      named: "good.p8")
    #expect(throws: ServerBeeRelayError.self) {
      try APNsSigningKey(pem: good, keyID: "ABC\"123", teamID: "DEF123GHIJ")
    }
    #expect(throws: ServerBeeRelayError.self) {
      try APNsSigningKey(pem: good, keyID: "ABC123DEFG", teamID: "")
    }
  }
}
