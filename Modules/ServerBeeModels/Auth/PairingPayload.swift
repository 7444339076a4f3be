#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The JSON text of a pairing QR code (Protocol/Auth.md §5.3):
/// `{"type":"serverbee_pair","server_url":"https://host:9527","code":"sb_pair_…"}`.
///
/// ```swift
/// let payload = try PairingPayload(scanned: qrText)
/// guard payload.server == savedServer else { /* a code for another server */ }
/// ```
public struct PairingPayload: Hashable, Sendable, Codable, SecretBearing {
  /// Always `serverbee_pair`.
  public static let expectedType = "serverbee_pair"
  /// The longest scanned text accepted.
  public static let maximumLength = 4096

  /// The server, normalised (Protocol/Auth.md §9).
  public var server: ServerURL
  /// The `sb_pair_` code (single use, 300 s).
  public var code: String

  /// Creates a payload, as the web app would draw it.
  /// - Parameters:
  ///   - server: The server.
  ///   - code: The pair code.
  public init(server: ServerURL, code: String) {
    self.server = server
    self.code = code
  }

  /// Parses scanned text.
  /// - Parameter scanned: The QR code's text.
  /// - Throws: ``ServerBeeModelsError`` with code `invalidPairingPayload` (not JSON, wrong
  ///   `type`, missing or empty `server_url`/`code`, too long) or `invalidServerURL`.
  public init(scanned: String) throws {
    func fail(_ why: String) -> ServerBeeModelsError {
      ServerBeeModelsError(.invalidPairingPayload, "not a ServerBee pairing code: \(why)")
    }
    guard scanned.utf8.count <= Self.maximumLength else { throw fail("the text is too long") }
    guard let value = try? WireJSON.decode(JSONValue.self, from: Data(scanned.utf8)),
      case .object = value
    else { throw fail("the text is not a JSON object") }
    guard value["type"]?.stringValue == Self.expectedType else {
      throw fail("its type is not \(Self.expectedType)")
    }
    guard let url = value["server_url"]?.stringValue, !url.isEmpty else {
      throw fail("server_url is missing")
    }
    guard let code = value["code"]?.stringValue, !code.isEmpty else {
      throw fail("code is missing")
    }
    self.init(server: try ServerURL(url), code: code)
  }

  private enum CodingKeys: String, CodingKey {
    case type
    case serverURL = "server_url"
    case code
  }

  /// Decodes with the same rules as ``init(scanned:)``.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let type = try container.decode(String.self, forKey: .type)
    guard type == Self.expectedType else {
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: container, debugDescription: "not \(Self.expectedType)")
    }
    server = try container.decode(ServerURL.self, forKey: .serverURL)
    code = try container.decode(String.self, forKey: .code)
  }

  /// Writes `type`, `server_url`, `code` in that order, as the web app does.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(Self.expectedType, forKey: .type)
    try container.encode(server, forKey: .serverURL)
    try container.encode(code, forKey: .code)
  }

  /// The QR text, byte-identical to the web app's.
  public var qrText: String {
    (try? WireJSON.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  /// `PairingPayload(server: URL, code redacted)`.
  public var redactedSummary: String { "PairingPayload(server: \(server), code redacted)" }
}
