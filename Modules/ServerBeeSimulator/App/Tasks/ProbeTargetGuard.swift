import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The SSRF guard on probe targets (Protocol/Tasks.md §5): a target whose host is a **literal**
/// IP address that is loopback, link-local (the cloud metadata address included), NAT64,
/// broadcast or in `0.0.0.0/8` is refused. Host names and private addresses pass: the server
/// does not resolve names here.
enum ProbeTargetGuard {
  /// The host part of `target` for a probe of `probeType` [inferred]: the whole target for
  /// ICMP, the part before the port for TCP (`host:port`, `[v6]:port`), the URL's host for HTTP;
  /// IPv6 brackets removed.
  static func host(of target: String, probeType: String) -> String {
    var host = target.trimmingCharacters(in: .whitespaces)
    if probeType == "http", let url = URL(string: host), let parsed = url.host {
      host = parsed
    } else if probeType == "tcp" || probeType == "http" {
      if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
        host = String(host[host.index(after: host.startIndex)..<close])
      } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
        host = String(host[..<colon])
      }
    }
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    return host
  }

  /// Why `host` is refused, or `nil` when it is a name or an allowed address.
  static func blockedKind(_ host: String) -> String? {
    var v4 = in_addr()
    if inet_pton(AF_INET, host, &v4) == 1 {
      return blockedKind(v4: withUnsafeBytes(of: v4.s_addr) { Array($0) })
    }
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, host, &v6) == 1 else { return nil }
    let bytes = withUnsafeBytes(of: v6) { Array($0) }
    if bytes == [UInt8](repeating: 0, count: 15) + [1] { return "loopback" }
    if bytes == [UInt8](repeating: 0, count: 16) { return "unspecified" }
    if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return "link-local" }
    // 64:ff9b::/96 (well-known NAT64) and 64:ff9b:1::/48 (local-use NAT64).
    if bytes[0...3] == [0x00, 0x64, 0xFF, 0x9B] { return "NAT64" }
    // fd00:ec2::254, the IPv6 cloud metadata address.
    if bytes == [0xFD, 0x00, 0x0E, 0xC2] + [UInt8](repeating: 0, count: 10) + [0x02, 0x54] {
      return "metadata"
    }
    // An IPv4-mapped address is checked as the IPv4 address it maps.
    if bytes[0..<12] == [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF] {
      return blockedKind(v4: Array(bytes[12..<16]))
    }
    return nil
  }

  private static func blockedKind(v4 bytes: [UInt8]) -> String? {
    switch (bytes[0], bytes[1]) {
    case (127, _): return "loopback"
    case (0, _): return "unspecified"
    case (169, 254): return bytes == [169, 254, 169, 254] ? "metadata" : "link-local"
    case (255, 255) where bytes == [255, 255, 255, 255]: return "broadcast"
    default: return nil
    }
  }
}
