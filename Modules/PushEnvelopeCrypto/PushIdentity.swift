import ServerBeeCore
public import ServerBeeModels

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The identity hash and additional authenticated data of envelope version 1 (Protocol/Push.md
/// §3.3).
///
/// The identity is the lowercase hex SHA-256 of the compact UTF-8 JSON array
/// `[deployment_id, user_id, installation_id]`, with `/` not escaped and non-ASCII left as UTF-8.
/// The AAD is the UTF-8 text `ServerBee.Push.v1|<key_id>|<identity>`.
///
/// ```swift
/// PushIdentity.hash(
///   deploymentID: "https://serverbee.test", userID: "alice", installationID: "test-install")
/// // "40e9ea0a395dec3bafe5e84afbbe2e726ac53aa273f168b4ac650b208fdef51f"
/// ```
public enum PushIdentity {
  /// Computes the identity hash.
  /// - Parameters:
  ///   - deploymentID: The server URL.
  ///   - userID: The server user id.
  ///   - installationID: The installation id.
  /// - Returns: 64 lowercase hex characters.
  public static func hash(deploymentID: String, userID: String, installationID: String) -> String {
    Hex.encode(SHA256.digest(canonicalArray(deploymentID, userID, installationID)))
  }

  /// Computes the identity hash of a content key's deployment, user and installation.
  /// - Parameter key: The content key.
  /// - Returns: 64 lowercase hex characters.
  public static func hash(of key: PushContentKey) -> String {
    hash(deploymentID: key.deploymentID, userID: key.userID, installationID: key.installationID)
  }

  /// The additional authenticated data of an envelope.
  /// - Parameters:
  ///   - keyID: The envelope's key id.
  ///   - identity: The envelope's identity hash.
  /// - Returns: `ServerBee.Push.v1|<key_id>|<identity>`.
  public static func additionalData(keyID: String, identity: String) -> String {
    "ServerBee.Push.v1|" + keyID + "|" + identity
  }

  /// The compact JSON array of three strings, written exactly as the server's serde_json does
  /// (`/` unescaped, control characters as `\u00xx`, everything else as UTF-8), which is also
  /// what `WireJSON.encode` writes for `[String]` (kept as ``canonicalArrayByWireJSON(_:)``, the
  /// reference of the tests). Written out because the generic encoder cost about 8 k
  /// instructions per push.
  static func canonicalArray(_ parts: String...) -> [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(parts.reduce(4) { $0 + $1.utf8.count + 3 })
    out.append(UInt8(ascii: "["))
    for (offset, part) in parts.enumerated() {
      if offset > 0 { out.append(UInt8(ascii: ",")) }
      // The one string escaping of the wire encoder (ServerBeeModels).
      WireJSON.appendString(part, to: &out)
    }
    out.append(UInt8(ascii: "]"))
    return out
  }

  /// The reference for ``canonicalArray(_:)``: `WireJSON.encode` of the array.
  static func canonicalArrayByWireJSON(_ parts: [String]) -> [UInt8] {
    // WireJSON.encode cannot fail for an array of strings; an empty array would only make the
    // identity comparison fail, which rejects.
    Array((try? WireJSON.encode(parts)) ?? Data())
  }
}
