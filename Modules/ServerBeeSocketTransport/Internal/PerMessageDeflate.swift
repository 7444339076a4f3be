import ServerBeeTransport

/// Negotiated permessage-deflate parameters (RFC 7692 §7.1) and the negotiation itself.
///
/// The client offers plain `permessage-deflate` (no `client_max_window_bits`, so a server may not
/// shrink our window: zlib cannot produce raw 8-bit windows). The server side accepts the first
/// acceptable offer and echoes the context-takeover and `server_max_window_bits` requests.
package struct PerMessageDeflateParameters: Sendable, Hashable {
  /// The server resets its compressor after each message.
  package var serverNoContextTakeover = false
  /// The client resets its compressor after each message.
  package var clientNoContextTakeover = false
  /// The server's LZ77 window limit, if negotiated.
  package var serverMaxWindowBits: Int?
  /// The client's LZ77 window limit, if negotiated.
  package var clientMaxWindowBits: Int?

  /// Creates parameters.
  /// - Parameters:
  ///   - serverNoContextTakeover: The server resets per message.
  ///   - clientNoContextTakeover: The client resets per message.
  ///   - serverMaxWindowBits: The server window limit.
  ///   - clientMaxWindowBits: The client window limit.
  package init(
    serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false,
    serverMaxWindowBits: Int? = nil, clientMaxWindowBits: Int? = nil
  ) {
    self.serverNoContextTakeover = serverNoContextTakeover
    self.clientNoContextTakeover = clientNoContextTakeover
    self.serverMaxWindowBits = serverMaxWindowBits
    self.clientMaxWindowBits = clientMaxWindowBits
  }

  /// The extension name.
  package static let name = "permessage-deflate"

  /// The `Sec-WebSocket-Extensions` value a client sends.
  /// - Parameter noContextTakeover: Whether to ask for no context takeover in both directions.
  /// - Returns: The offer.
  package static func clientOffer(noContextTakeover: Bool = false) -> String {
    noContextTakeover
      ? "permessage-deflate; server_no_context_takeover; client_no_context_takeover"
      : "permessage-deflate"
  }

  /// Validates a server's `Sec-WebSocket-Extensions` response to ``clientOffer(noContextTakeover:)``.
  /// - Parameter header: The header value, or `nil` when absent.
  /// - Returns: The negotiated parameters, or `nil` when the server declined compression.
  /// - Throws: A description of what is wrong (unknown extension or parameter, bad value).
  package static func acceptResponse(_ header: String?) throws(HandshakeProblem)
    -> PerMessageDeflateParameters?
  {
    guard let header, !header.trimmingSpaces.isEmpty else { return nil }
    let extensions = parseExtensions(header)
    guard extensions.count == 1, let only = extensions.first, only.name == name else {
      throw HandshakeProblem("the server selected an extension that was not offered")
    }
    var result = PerMessageDeflateParameters()
    var seen = Set<String>()
    for (key, value) in only.parameters {
      guard seen.insert(key).inserted else {
        throw HandshakeProblem("duplicate permessage-deflate parameter \(key)")
      }
      switch (key, value) {
      case ("server_no_context_takeover", nil): result.serverNoContextTakeover = true
      case ("client_no_context_takeover", nil): result.clientNoContextTakeover = true
      case ("server_max_window_bits", let value?):
        guard let bits = windowBits(value) else {
          throw HandshakeProblem("bad server_max_window_bits")
        }
        result.serverMaxWindowBits = bits
      default:
        // client_max_window_bits was not offered, so the server must not send it.
        throw HandshakeProblem("unexpected permessage-deflate parameter \(key)")
      }
    }
    return result
  }

  /// Chooses the first acceptable permessage-deflate offer from a client's header (server side).
  /// - Parameter header: The client's `Sec-WebSocket-Extensions`, or `nil`.
  /// - Returns: The response header value and the parameters, or `nil` to decline compression.
  package static func negotiate(offers header: String?) -> (
    response: String, parameters: PerMessageDeflateParameters
  )? {
    guard let header else { return nil }
    offers: for offer in parseExtensions(header) where offer.name == name {
      var result = PerMessageDeflateParameters()
      var seen = Set<String>()
      for (key, value) in offer.parameters {
        guard seen.insert(key).inserted else { continue offers }
        switch (key, value) {
        case ("server_no_context_takeover", nil): result.serverNoContextTakeover = true
        case ("client_no_context_takeover", nil): result.clientNoContextTakeover = true
        case ("server_max_window_bits", let value?):
          // zlib cannot deflate with a raw 8-bit window, so decline such an offer.
          guard let bits = windowBits(value), bits >= 9 else { continue offers }
          result.serverMaxWindowBits = bits
        case ("client_max_window_bits", nil): break
        case ("client_max_window_bits", let value?):
          guard windowBits(value) != nil else { continue offers }
        default: continue offers
        }
      }
      var response = name
      if result.serverNoContextTakeover { response += "; server_no_context_takeover" }
      if result.clientNoContextTakeover { response += "; client_no_context_takeover" }
      if let bits = result.serverMaxWindowBits { response += "; server_max_window_bits=\(bits)" }
      return (response, result)
    }
    return nil
  }

  private static func windowBits(_ text: String) -> Int? {
    guard text.utf8.count <= 4 else { return nil }  // at most `"15"`
    let unquoted =
      text.hasPrefix("\"") && text.hasSuffix("\"") && text.count >= 2
      ? String(text.dropFirst().dropLast()) : text
    guard unquoted.count <= 2, unquoted.allSatisfy(\.isASCII), let bits = Int(unquoted),
      (8...15).contains(bits)
    else { return nil }
    return bits
  }

  /// Splits an extensions header into names with `key[=value]` parameters.
  /// - Parameter header: The header value.
  /// - Returns: The extensions in order.
  package static func parseExtensions(_ header: String) -> [(
    name: String, parameters: [(String, String?)]
  )] {
    // On the UTF-8 bytes: the separators are ASCII, and Character-based splitting costs
    // grapheme breaking on every byte of a header the peer controls (found by fuzz-http-head).
    Array(header.utf8).split(separator: UInt8(ascii: ",")).map { item in
      let parts = item.split(separator: UInt8(ascii: ";")).map { trimmed($0) }
      let parameters: [(String, String?)] = parts.dropFirst().map { parameter in
        let bytes = Array(parameter.utf8)
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { return (parameter, nil) }
        return (trimmed(bytes[..<equals]), trimmed(bytes[(equals + 1)...]))
      }
      return (parts.first ?? "", parameters)
    }
  }

  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
    String(decoding: bytes, as: UTF8.self).trimmingSpaces
  }
}

/// A handshake that breaks RFC 6455 or RFC 7692; reported as `.handshakeInvalid`.
package struct HandshakeProblem: Error, Hashable, Sendable {
  /// What was wrong.
  package var detail: String
  /// Creates a problem.
  /// - Parameter detail: What was wrong.
  package init(_ detail: String) { self.detail = detail }
}

extension String {
  /// Without leading and trailing spaces and tabs. Works on the UTF-8 bytes: the former
  /// Character-by-Character version (reversed twice) cost about 2 µs per byte, 38 ms for one
  /// 16 KiB `Sec-WebSocket-Extensions` header a client controls (found by fuzz-http-head).
  var trimmingSpaces: String {
    let bytes = utf8
    let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }),
      let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return "" }
    // Both ends sit next to ASCII (or the string's ends), so the slice is whole characters.
    return String(decoding: bytes[first...last], as: UTF8.self)
  }
}
