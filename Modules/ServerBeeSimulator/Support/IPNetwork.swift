import Foundation

/// IPv4 and IPv6 addresses and CIDR blocks, parsed without the C library so the simulator
/// behaves the same on every platform (security rules' `exclude_cidrs`, Protocol/Security.md §5).
///
/// Addresses are the strict textual forms: dotted quads without leading zeros, and IPv6 with
/// at most one `::` and an optional dotted-quad tail; no zone ids. A block without `/n` is a
/// single address. An IPv4 address never matches an IPv6 block (IPv4-mapped forms included)
/// and the other way round.
enum IPNetwork {
  /// The address bytes (4 or 16), or `nil` when `text` is not an address.
  static func address(_ text: String) -> [UInt8]? {
    text.contains(":") ? ipv6(Substring(text)) : ipv4(Substring(text))
  }

  /// A block as (network bytes, prefix length), or `nil` when `text` is not a block.
  static func block(_ text: String) -> (bytes: [UInt8], prefix: Int)? {
    let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    guard let bytes = address(String(parts[0])) else { return nil }
    guard parts.count == 2 else { return (bytes, bytes.count * 8) }
    let digits = parts[1]
    guard (1...3).contains(digits.count), digits.allSatisfy(\.isASCIIDigit),
      let prefix = Int(digits), prefix <= bytes.count * 8
    else { return nil }
    return (bytes, prefix)
  }

  /// Whether `address` lies in the block `cidr` (same family, first `prefix` bits equal).
  static func contains(_ cidr: String, _ address: String) -> Bool {
    guard let block = block(cidr), let bytes = self.address(address),
      bytes.count == block.bytes.count
    else { return false }
    var remaining = block.prefix
    for (network, host) in zip(block.bytes, bytes) where remaining > 0 {
      let bits = min(remaining, 8)
      let mask = UInt8(truncatingIfNeeded: 0xff << (8 - bits))
      guard network & mask == host & mask else { return false }
      remaining -= bits
    }
    return true
  }

  private static func ipv4(_ text: Substring) -> [UInt8]? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var bytes: [UInt8] = []
    for part in parts {
      guard (1...3).contains(part.count), part.allSatisfy(\.isASCIIDigit),
        part.count == 1 || part.first != "0", let value = UInt8(part)
      else { return nil }
      bytes.append(value)
    }
    return bytes
  }

  private static func ipv6(_ text: Substring) -> [UInt8]? {
    let halves = text.components(separatedBy: "::")
    let groups: [UInt16]
    switch halves.count {
    case 1:
      guard let all = ipv6Groups(Substring(halves[0]), tail: true), all.count == 8 else {
        return nil
      }
      groups = all
    case 2:
      guard let head = ipv6Groups(Substring(halves[0]), tail: false),
        let tail = ipv6Groups(Substring(halves[1]), tail: true), head.count + tail.count <= 7
      else { return nil }
      groups = head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
    default:
      return nil
    }
    return groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
  }

  /// The 16-bit groups of one side of `::` (empty text: none); a dotted quad may end the tail.
  private static func ipv6Groups(_ text: Substring, tail: Bool) -> [UInt16]? {
    guard !text.isEmpty else { return [] }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    var groups: [UInt16] = []
    for (index, part) in parts.enumerated() {
      if tail, index == parts.count - 1, part.contains(".") {
        guard let quad = ipv4(part) else { return nil }
        groups.append(UInt16(quad[0]) << 8 | UInt16(quad[1]))
        groups.append(UInt16(quad[2]) << 8 | UInt16(quad[3]))
        continue
      }
      guard (1...4).contains(part.count), part.allSatisfy(\.isHexDigit),
        let value = UInt16(part, radix: 16)
      else { return nil }
      groups.append(value)
    }
    return groups
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
