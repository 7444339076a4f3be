/// A blocklist target as the server keeps it (Protocol/Firewall.md §3): a network of either
/// family with its host bits cleared, written the way the server writes it, and the overlap
/// test of the guard rails and the allow list (Protocol/Firewall.md §4).
struct FirewallNetwork: Hashable {
  /// The network address, 4 or 16 bytes, host bits cleared.
  let bytes: [UInt8]
  /// The prefix length.
  let prefix: Int

  /// The ranges that are never blocked, in the order the server tries them, written as its
  /// refusal names them.
  static let guardrails = [
    "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16",
    "0.0.0.0/8", "224.0.0.0/4", "::1/128", "fc00::/7", "fe80::/10", "ff00::/8", "::/128",
  ]

  /// The canonical network of `input`: a bare address is a one-address network, a CIDR loses
  /// its host bits; `nil` when `input` is neither (no trimming, strict address forms).
  init?(_ input: String) {
    guard let block = IPNetwork.block(input) else { return nil }
    self.init(bytes: block.bytes, prefix: block.prefix)
  }

  init(bytes: [UInt8], prefix: Int) {
    self.bytes = Self.masked(bytes, prefix)
    self.prefix = prefix
  }

  /// `4` or `6`.
  var family: Int { bytes.count == 4 ? 4 : 6 }

  /// `203.0.113.0/24`, `2001:db8::/32`, `::ffff:192.0.2.1/128`.
  var text: String { Self.addressText(bytes) + "/\(prefix)" }

  /// Whether either network contains the other's first address (same family only).
  func overlaps(_ other: FirewallNetwork) -> Bool {
    guard bytes.count == other.bytes.count else { return false }
    let shorter = min(prefix, other.prefix)
    return Self.masked(bytes, shorter) == Self.masked(other.bytes, shorter)
  }

  private static func masked(_ bytes: [UInt8], _ prefix: Int) -> [UInt8] {
    var remaining = prefix
    return bytes.map { byte in
      let bits = max(0, min(remaining, 8))
      remaining -= 8
      return bits == 0 ? 0 : byte & UInt8(truncatingIfNeeded: 0xff << (8 - bits))
    }
  }

  /// An address as the server prints it: dotted quad; IPv6 lowercase with the longest run of
  /// two or more zero groups as `::` (the first on a tie), IPv4-mapped as `::ffff:a.b.c.d`.
  static func addressText(_ bytes: [UInt8]) -> String {
    if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
    if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
      return "::ffff:" + addressText(Array(bytes[12..<16]))
    }
    let groups = stride(from: 0, to: 16, by: 2).map {
      UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
    }
    var best = (start: 0, length: 0)
    var index = 0
    while index < groups.count {
      var end = index
      while end < groups.count, groups[end] == 0 { end += 1 }
      if end - index > best.length { best = (index, end - index) }
      index = end == index ? index + 1 : end
    }
    let hex = groups.map { String($0, radix: 16) }
    guard best.length > 1 else { return hex.joined(separator: ":") }
    let head = hex[..<best.start].joined(separator: ":")
    let tail = hex[(best.start + best.length)...].joined(separator: ":")
    return head + "::" + tail
  }
}
