#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// A ServerBee server's base URL, normalised as Protocol/Auth.md §9 describes.
///
/// Normalisation: the scheme (`http` or `https` only) and host are lower-cased, the default
/// port (80/443) is dropped, trailing `/` are removed, and user info, query and fragment are
/// refused. A path is kept (for servers behind a reverse-proxy prefix), although QR payloads
/// never carry one. Two URLs name the same server exactly when their ``string`` values are equal.
///
/// ```swift
/// let server = try ServerURL("HTTPS://Monitor.Example.com:443/")
/// server.string                       // "https://monitor.example.com"
/// server.endpoint("/api/servers")     // https://monitor.example.com/api/servers
/// server.isSecure                     // true; plain http works but is flagged insecure
/// ```
public struct ServerURL: Hashable, Sendable, Codable, CustomStringConvertible {
  /// `"http"` or `"https"`.
  public let scheme: String
  /// The lower-cased host; IPv6 literals keep their brackets (`[::1]`).
  public let host: String
  /// The port, or `nil` for the scheme's default.
  public let port: Int?
  /// The path without trailing `/` (usually empty).
  public let path: String

  /// Parses and normalises a URL.
  /// - Parameter text: What the user typed or the QR payload held (at most 2,048 characters).
  /// - Throws: ``ServerBeeModelsError`` with code `invalidServerURL`, saying what is wrong.
  public init(_ text: String) throws {
    func fail(_ why: String) -> ServerBeeModelsError {
      ServerBeeModelsError(.invalidServerURL, "invalid server URL: \(why)")
    }
    let trimmed = WireText.trimmingWhitespaceAndNewlines(text)
    guard !trimmed.isEmpty else { throw fail("it is empty") }
    guard trimmed.utf8.count <= 2048 else { throw fail("it is longer than 2048 characters") }
    guard let separator = trimmed.firstRange(of: "://") else {
      throw fail("it has no scheme (use https:// or http://)")
    }
    let scheme = trimmed[..<separator.lowerBound].lowercased()
    guard scheme == "http" || scheme == "https" else {
      throw fail("the scheme must be http or https")
    }
    let rest = trimmed[separator.upperBound...]
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    let authority = rest[..<authorityEnd]
    let tail = rest[authorityEnd...]
    guard !authority.contains("@") else { throw fail("user names and passwords are not allowed") }
    guard !tail.contains("?") else { throw fail("a query is not allowed") }
    guard !tail.contains("#") else { throw fail("a fragment is not allowed") }

    var host: Substring
    var portText: Substring?
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { throw fail("unclosed IPv6 bracket") }
      host = authority[...close]
      let after = authority[authority.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { throw fail("unexpected text after the IPv6 address") }
        portText = after.dropFirst()
      }
    } else if let colon = authority.lastIndex(of: ":") {
      host = authority[..<colon]
      portText = authority[authority.index(after: colon)...]
    } else {
      host = authority
    }
    guard !host.isEmpty, host != "[]" else { throw fail("the host is missing") }
    if host.hasPrefix("[") {
      // An IPv6 literal: hex digits, colons and dots (embedded IPv4) inside the brackets.
      let inner = host.dropFirst().dropLast()
      guard inner.contains(":"), inner.unicodeScalars.allSatisfy(WireText.isIPv6LiteralScalar)
      else {
        throw fail("the IPv6 address is malformed")
      }
    } else {
      // A name or an IPv4 address: never a bracket, and a second colon is an error rather than
      // a silently ignored part (`127.0.0.1:44405:80`).
      guard !host.contains(":") else { throw fail("the host has an unbracketed colon") }
      guard host.unicodeScalars.allSatisfy(WireText.isHostNameScalar) else {
        throw fail("the host has characters that are not allowed")
      }
    }
    var port: Int?
    if let portText {
      guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCII),
        let value = Int(portText), (1...65535).contains(value)
      else { throw fail("the port must be a number from 1 to 65535") }
      port = value
    }
    if (scheme == "http" && port == 80) || (scheme == "https" && port == 443) { port = nil }
    var path = String(tail)
    while path.hasSuffix("/") { path.removeLast() }
    guard !path.contains(" ") else { throw fail("the path has spaces") }
    // RFC 3986 path characters only (unreserved, sub-delims, `:`, `@`, `/` and `%XX`): anything
    // else (control characters, non-ASCII, `<>"{}|\^` …) made `url` percent-encode it and
    // `endpoint(_:)` silently fall back to the bare base (found by fuzz-server-url).
    guard Self.isValidPath(Array(path.utf8)) else {
      throw fail("the path has characters that are not allowed (percent-encode them)")
    }

    self.scheme = scheme
    self.host = host.lowercased()
    self.port = port
    self.path = path
  }

  private static func isValidPath(_ bytes: [UInt8]) -> Bool {
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        index += 1
      case UInt8(ascii: "%"):
        guard index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit
        else { return false }
        index += 3
      default:
        // unreserved `-._~`, sub-delims `!$&'()*+,;=`, then `:` `@` `/`.
        guard Array("-._~!$&'()*+,;=:@/".utf8).contains(byte) else { return false }
        index += 1
      }
    }
    return true
  }

  /// The normalised text, for example `https://monitor.example.com:9527`.
  public var string: String {
    scheme + "://" + host + (port.map { ":\($0)" } ?? "") + path
  }

  /// The normalised text.
  public var description: String { string }

  /// `true` for `https`. Plain `http` is allowed but sends tokens in clear text.
  public var isSecure: Bool { scheme == "https" }

  /// `true` when the host is a loopback address (`127.x.x.x`, `[::1]`, `localhost`).
  public var isLoopback: Bool {
    if host == "localhost" || host == "[::1]" { return true }
    // 127.0.0.0/8 as an IPv4 literal only: `127.evil.example` is a name, not loopback.
    let octets = host.split(separator: ".", omittingEmptySubsequences: false)
    guard octets.count == 4, octets[0] == "127" else { return false }
    return octets.allSatisfy { octet in
      !octet.isEmpty && octet.count <= 3 && octet.allSatisfy(\.isASCII)
        && Int(octet).map { (0...255).contains($0) } == true
    }
  }

  /// The effective port (the scheme's default when none is given).
  public var effectivePort: Int { port ?? (isSecure ? 443 : 80) }

  /// The base as a `URL`.
  public var url: URL {
    // Every component was validated above, so this cannot fail for a constructed value; the
    // fallback keeps the API non-optional without a force unwrap.
    URL(string: string) ?? URL(fileURLWithPath: "/")
  }

  /// An absolute URL for an API path.
  /// - Parameter apiPath: A path starting with `/`, for example `/api/servers`; it may carry a
  ///   query (`/api/alert-events?limit=20`).
  /// - Returns: The base followed by the path.
  public func endpoint(_ apiPath: String) -> URL {
    URL(string: string + (apiPath.hasPrefix("/") ? apiPath : "/" + apiPath)) ?? url
  }

  /// The WebSocket URL for an API path (`ws://` or `wss://`).
  /// - Parameter apiPath: For example `/api/ws/servers`.
  /// - Returns: The URL with the WebSocket scheme.
  public func webSocketEndpoint(_ apiPath: String) -> URL {
    let wsScheme = isSecure ? "wss" : "ws"
    let base = wsScheme + string.dropFirst(scheme.count)
    return URL(string: base + (apiPath.hasPrefix("/") ? apiPath : "/" + apiPath)) ?? url
  }

  /// Decodes and normalises a URL string.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do {
      try self.init(text)
    } catch let error as ServerBeeModelsError {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
    }
  }

  /// Encodes the normalised text.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(string)
  }
}

extension UInt8 {
  fileprivate var isHexDigit: Bool {
    (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
  }
}

extension ServerURL {
  /// Whether `url` has this server's scheme, host and port (the default port of the scheme
  /// when absent): where a credential for this server may be sent.
  /// - Parameter url: A request URL.
  /// - Returns: `true` for the same origin.
  package func hasSameOrigin(as url: URL) -> Bool {
    func origin(_ url: URL) -> (String, String, Int)? {
      guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
        return nil
      }
      return (scheme, host, url.port ?? (scheme == "https" ? 443 : 80))
    }
    guard let left = origin(url), let right = origin(self.url) else { return false }
    return left == right
  }
}
