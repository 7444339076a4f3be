import Foundation
import ServerBeeModels

/// The checks a custom IP quality service's request and rules pass, on creation and on every
/// change (Protocol/AppRoutes.md §9): an `http` or `https` URL with port 80, 443 or none, and a
/// non-empty list of rules. Each failure is the server's 422 `Validation error: …`.
enum CustomServiceRules {
  /// Refuses a URL the server's URL parser rejects (`Invalid URL: …`), another scheme, or
  /// another port.
  static func check(url: String) throws {
    let (scheme, rest) = try parse(url)
    guard scheme == "http" || scheme == "https" else {
      throw APIError.validation("URL scheme must be http or https")
    }
    if let port = try port(rest), port != 80, port != 443 {
      throw APIError.validation("URL port must be 80 or 443 (or absent)")
    }
  }

  /// Refuses an empty list of rules.
  static func check(rules: [JSONValue]) throws {
    guard !rules.isEmpty else {
      throw APIError.validation("rules must not be empty for a custom service")
    }
  }

  /// The scheme (lower-cased) and what follows its colon; a text without one is the parser's
  /// `relative URL without a base`.
  private static func parse(_ url: String) throws -> (String, Substring) {
    let trimmed = url.trimmingCharacters(in: .whitespaces)
    guard let colon = trimmed.firstIndex(of: ":"), colon != trimmed.startIndex,
      let first = trimmed.first, first.isASCII, first.isLetter,
      trimmed[..<colon].allSatisfy({
        $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0))
      })
    else { throw APIError.validation("Invalid URL: relative URL without a base") }
    return (trimmed[..<colon].lowercased(), trimmed[trimmed.index(after: colon)...])
  }

  /// The port of an `http(s)` URL's authority, `nil` when there is none; an empty host, a bad
  /// port or a character a host may not hold is the parser's error.
  private static func port(_ rest: Substring) throws -> Int? {
    let afterSlashes = rest.drop { $0 == "/" || $0 == "\\" }
    let authority = afterSlashes.prefix { !"/?#\\".contains($0) }
    let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
    var host = hostAndPort
    var portText: Substring?
    if hostAndPort.hasPrefix("[") {
      guard let end = hostAndPort.firstIndex(of: "]") else {
        throw APIError.validation("Invalid URL: invalid IPv6 address")
      }
      host = hostAndPort[...end]
      let after = hostAndPort[hostAndPort.index(after: end)...]
      if after.hasPrefix(":") { portText = after.dropFirst() }
    } else if let colon = hostAndPort.lastIndex(of: ":") {
      host = hostAndPort[..<colon]
      portText = hostAndPort[hostAndPort.index(after: colon)...]
    }
    guard !host.isEmpty else { throw APIError.validation("Invalid URL: empty host") }
    if !host.hasPrefix("["), host.contains(where: { " %<>[]^|".contains($0) }) {
      throw APIError.validation("Invalid URL: invalid domain character")
    }
    guard let portText, !portText.isEmpty else { return nil }
    guard portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
      let port = Int(portText), port <= 65_535
    else { throw APIError.validation("Invalid URL: invalid port number") }
    return port
  }
}
