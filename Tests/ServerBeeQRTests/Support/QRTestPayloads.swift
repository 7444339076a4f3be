/// Deterministic payloads for the QR tests.
enum QRTestPayloads {
  private static let base64URLAlphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// `count` base64url characters that look random but never change.
  static func base64URL(count: Int, seed: Int = 0) -> String {
    String(
      decoding: (0..<count).map { base64URLAlphabet[(($0 + seed) * 37 + 11) % 64] },
      as: UTF8.self)
  }

  /// A realistic pairing payload: the simulator's shape with a 43-character code (124 bytes).
  static let pairing =
    #"{"type":"serverbee_pair","server_url":"http://127.0.0.1:40123","code":"sb_pair_"#
    + base64URL(count: 43) + #""}"#

  /// A pairing-shaped JSON text of exactly `length` bytes (44 or more), the code growing to fit.
  static func pairingJSON(length: Int) -> String {
    let full = #"{"type":"serverbee_pair","server_url":"http://127.0.0.1:40123","code":"sb_pair_"#
    let short = #"{"type":"serverbee_pair","code":"sb_pair_"#
    let prefix = length >= full.utf8.count + 2 + 8 ? full : short
    return prefix + base64URL(count: max(length - prefix.utf8.count - 2, 0)) + #""}"#
  }

  /// `count` printable ASCII bytes.
  static func ascii(count: Int, seed: Int = 0) -> [UInt8] {
    (0..<count).map { UInt8(32 + (($0 + seed) * 7 + 3) % 95) }
  }
}
