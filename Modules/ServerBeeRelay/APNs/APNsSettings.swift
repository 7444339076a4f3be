public import Foundation
public import ServerBeeModels

/// `serverbee-relay`'s APNs settings, read from the Cloudflare Worker's environment names so a
/// Worker deployment moves over unchanged: `APNS_TEAM_ID`, `APNS_KEY_ID`, `APNS_TOPIC`, the key
/// as `APNS_PRIVATE_KEY` (PKCS#8 PEM text) or `APNS_PRIVATE_KEY_FILE`, and `APNS_ENVIRONMENTS`
/// (comma-separated `sandbox`, `production`; both by default).
///
/// ```swift
/// if let settings = try APNsSettings(
///   environment: ProcessInfo.processInfo.environment,
///   urls: ["sandbox=https://localhost:8443"], caFile: "/etc/serverbee/ca.pem") {
///   let apns = APNsPushProvider(configuration: settings.providerConfiguration())
/// }
/// ```
///
/// Everything is checked here, at start: a missing name, an unknown environment, a bad URL, a
/// key file that cannot be read or a key that is not a P-256 PKCS#8 key is a
/// ``ServerBeeRelayError`` (`invalidConfiguration` or `invalidSigningKey`) whose message is one
/// sentence naming the problem, never the key.
public struct APNsSettings: Sendable {
  /// The signing key (with its key id and team id).
  public var signingKey: APNsSigningKey
  /// The `apns-topic` (the app's bundle id).
  public var topic: String
  /// The environments served.
  public var environments: Set<PushEnvironment>
  /// Endpoint overrides from `--apns-url ENVIRONMENT=URL`.
  public var endpoints: [PushEnvironment: URL]
  /// The extra trusted CA file from `--apns-ca-file`.
  public var additionalCAFile: URL?

  /// Reads the settings; `nil` when none of `APNS_TEAM_ID`, `APNS_KEY_ID`, `APNS_PRIVATE_KEY`
  /// and `APNS_PRIVATE_KEY_FILE` is set (and no `--apns-*` option was given): no APNs then.
  /// - Parameters:
  ///   - environment: The process environment.
  ///   - urls: The `--apns-url` values, `ENVIRONMENT=https://host[:port]`.
  ///   - caFile: The `--apns-ca-file` value, if any.
  /// - Throws: ``ServerBeeRelayError`` naming the first problem.
  public init?(environment: [String: String], urls: [String] = [], caFile: String? = nil) throws {
    let names = ["APNS_TEAM_ID", "APNS_KEY_ID", "APNS_PRIVATE_KEY", "APNS_PRIVATE_KEY_FILE"]
    let value = { (name: String) -> String? in
      guard let text = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines),
        !text.isEmpty
      else { return nil }
      return text
    }
    guard names.contains(where: { value($0) != nil }) else {
      if !urls.isEmpty || caFile != nil {
        throw ServerBeeRelayError(
          .invalidConfiguration,
          "--apns-url and --apns-ca-file need APNS_TEAM_ID, APNS_KEY_ID, APNS_TOPIC and APNS_PRIVATE_KEY (or APNS_PRIVATE_KEY_FILE)"
        )
      }
      return nil
    }
    for name in ["APNS_TEAM_ID", "APNS_KEY_ID", "APNS_TOPIC"] where value(name) == nil {
      throw ServerBeeRelayError(.invalidConfiguration, "\(name) is not set")
    }
    let pem: String
    switch (value("APNS_PRIVATE_KEY"), value("APNS_PRIVATE_KEY_FILE")) {
    case (.some, .some):
      throw ServerBeeRelayError(
        .invalidConfiguration, "set APNS_PRIVATE_KEY or APNS_PRIVATE_KEY_FILE, not both")
    case (nil, nil):
      throw ServerBeeRelayError(
        .invalidConfiguration, "APNS_PRIVATE_KEY (or APNS_PRIVATE_KEY_FILE) is not set")
    case (let text?, nil):
      // A Worker secret pasted into one line may carry literal "\n" sequences.
      pem = text.contains("\n") ? text : text.replacingOccurrences(of: "\\n", with: "\n")
    case (nil, let path?):
      guard let data = FileManager.default.contents(atPath: path) else {
        throw ServerBeeRelayError(
          .invalidConfiguration, "APNS_PRIVATE_KEY_FILE cannot be read: \(path)")
      }
      pem = String(decoding: data, as: UTF8.self)
    }
    signingKey = try APNsSigningKey(
      pem: pem, keyID: value("APNS_KEY_ID") ?? "", teamID: value("APNS_TEAM_ID") ?? "")
    topic = value("APNS_TOPIC") ?? ""
    guard
      topic.utf8.allSatisfy({
        ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7a) || $0 == 0x2e
          || $0 == 0x2d || $0 == 0x5f
      })
    else {
      throw ServerBeeRelayError(
        .invalidConfiguration, "APNS_TOPIC must be a bundle id (letters, digits, '.', '-', '_')")
    }
    environments = try Self.environments(value("APNS_ENVIRONMENTS") ?? "sandbox,production")
    endpoints = [:]
    for entry in urls {
      let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let name = Self.environment(parts[0]) else {
        throw ServerBeeRelayError(
          .invalidConfiguration, "--apns-url takes ENVIRONMENT=URL with sandbox or production")
      }
      guard let url = URL(string: parts[1]), url.scheme == "https", let host = url.host,
        !host.isEmpty, url.path.isEmpty || url.path == "/", url.query == nil
      else {
        throw ServerBeeRelayError(
          .invalidConfiguration, "--apns-url \(parts[0]) needs https://HOST[:PORT]")
      }
      guard endpoints[name] == nil else {
        throw ServerBeeRelayError(.invalidConfiguration, "--apns-url \(parts[0]) given twice")
      }
      endpoints[name] = url
    }
    if let caFile {
      guard FileManager.default.isReadableFile(atPath: caFile) else {
        throw ServerBeeRelayError(.invalidConfiguration, "--apns-ca-file cannot be read: \(caFile)")
      }
      additionalCAFile = URL(fileURLWithPath: caFile)
    }
  }

  /// The provider configuration for these settings.
  /// - Parameter log: Where the provider logs; nowhere by default.
  /// - Returns: The configuration.
  public func providerConfiguration(log: (@Sendable (String) -> Void)? = nil)
    -> APNsPushProvider.Configuration
  {
    APNsPushProvider.Configuration(
      signingKey: signingKey, endpoints: endpoints, additionalCAFile: additionalCAFile, log: log)
  }

  private static func environment(_ name: String) -> PushEnvironment? {
    switch name.trimmingCharacters(in: .whitespaces) {
    case "sandbox": .sandbox
    case "production": .production
    default: nil
    }
  }

  /// `sandbox` and/or `production`, comma-separated.
  /// - Throws: ``ServerBeeRelayError`` `invalidConfiguration` for another name or an empty list.
  static func environments(_ list: String) throws -> Set<PushEnvironment> {
    var result: Set<PushEnvironment> = []
    for name in list.split(separator: ",", omittingEmptySubsequences: false) {
      guard let environment = environment(String(name)) else {
        throw ServerBeeRelayError(
          .invalidConfiguration,
          "APNS_ENVIRONMENTS takes sandbox and/or production, comma-separated")
      }
      result.insert(environment)
    }
    return result
  }
}
