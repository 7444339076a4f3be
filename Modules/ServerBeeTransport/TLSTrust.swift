#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// What a TLS connection trusts: the system CA store, plus an optional extra CA file and
/// optional SHA-256 certificate pins for self-hosted servers.
///
/// There is deliberately no "accept any certificate" option. The host name is always verified.
///
/// ```swift
/// // A self-hosted server with a self-signed certificate, pinned by its SHA-256 fingerprint:
/// let pin = try #require(TLSTrust.fingerprint(hex: "AB:CD:…"))
/// let trust = TLSTrust(certificateSHA256Pins: [pin])
/// ```
///
/// - The system store is always used.
/// - ``additionalCAFile`` adds PEM CA certificates (for a private CA).
/// - With ``certificateSHA256Pins`` set, the server's leaf certificate (its DER bytes hashed with
///   SHA-256, as `openssl x509 -noout -fingerprint -sha256` prints) must match one pin. A
///   matching leaf is trusted even when it does not chain to a trusted CA, which is what a
///   self-signed self-hosted server needs; a leaf that matches no pin is rejected even when it
///   does chain. The host name must match the certificate either way.
public struct TLSTrust: Sendable, Hashable {
  /// A PEM file of extra trusted CA certificates, or `nil`.
  public var additionalCAFile: URL?
  /// SHA-256 fingerprints (32 bytes each) of acceptable leaf certificates; empty for no pinning.
  public var certificateSHA256Pins: [Data]

  /// Creates a trust configuration.
  /// - Parameters:
  ///   - additionalCAFile: A PEM file of extra trusted CAs.
  ///   - certificateSHA256Pins: Leaf certificate SHA-256 fingerprints; empty for none.
  public init(additionalCAFile: URL? = nil, certificateSHA256Pins: [Data] = []) {
    self.additionalCAFile = additionalCAFile
    self.certificateSHA256Pins = certificateSHA256Pins
  }

  /// Parses a SHA-256 fingerprint written as hex, with or without `:` separators.
  /// - Parameter hex: For example `"AB:CD:…"` (64 hex digits).
  /// - Returns: The 32 bytes, or `nil` if the text is not a SHA-256 fingerprint.
  public static func fingerprint(hex: String) -> Data? {
    let digits = Array(hex.filter { $0 != ":" && !$0.isWhitespace })
    guard digits.count == 64 else { return nil }
    var bytes = Data()
    for index in stride(from: 0, to: 64, by: 2) {
      guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else { return nil }
      bytes.append(byte)
    }
    return bytes
  }
}
