package import ServerBeeTransport

/// The start line and headers of an HTTP/1.1 request, as the upgrade handshake and the simulator
/// need them.
package struct HTTPRequestHead: Sendable, Hashable {
  /// The method token, for example `GET`.
  package var method: String
  /// The request target, for example `/api/ws/servers?x=1`.
  package var target: String
  /// The header fields (names lowercased; repeated names joined by `", "`).
  package var headers: HTTPHeaders
  /// The protocol version from the request line, `HTTP/1.1` or `HTTP/1.0`.
  package var version: String

  /// Creates a request head.
  /// - Parameters:
  ///   - method: The method token.
  ///   - target: The request target.
  ///   - headers: The header fields.
  ///   - version: The protocol version; `HTTP/1.1` by default.
  package init(method: String, target: String, headers: HTTPHeaders, version: String = "HTTP/1.1") {
    self.method = method
    self.target = target
    self.headers = headers
    self.version = version
  }

  /// The head as bytes, ending with the blank line; headers sorted by name for stable output.
  /// The request line keeps ``version`` (an `HTTP/1.0` request stays one; found by
  /// `fuzz-http-head`).
  package var serialized: [UInt8] {
    HTTPHeadCodec.serialize(startLine: "\(method) \(target) \(version)", headers: headers)
  }
}

/// The status line and headers of an HTTP/1.1 response.
package struct HTTPResponseHead: Sendable, Hashable {
  /// The status code.
  package var status: Int
  /// The reason phrase, possibly empty.
  package var reason: String
  /// The header fields (names lowercased; repeated names joined by `", "`).
  package var headers: HTTPHeaders

  /// Creates a response head.
  /// - Parameters:
  ///   - status: The status code.
  ///   - reason: The reason phrase.
  ///   - headers: The header fields.
  package init(status: Int, reason: String, headers: HTTPHeaders) {
    self.status = status
    self.reason = reason
    self.headers = headers
  }

  /// The head as bytes, ending with the blank line; headers sorted by name for stable output.
  package var serialized: [UInt8] {
    HTTPHeadCodec.serialize(startLine: "HTTP/1.1 \(status) \(reason)", headers: headers)
  }
}

/// Why an HTTP head was rejected.
package enum HTTPHeadError: Error, Hashable, Sendable {
  /// The head is longer than the limit (or its terminator did not come within it).
  case tooLarge
  /// More header lines than the limit.
  case tooManyHeaders
  /// The request or status line is malformed or not HTTP/1.x.
  case malformedStartLine
  /// A header line is malformed (no colon, bad name, control characters, obsolete folding).
  case malformedHeader
}

/// A bounded HTTP/1.1 head parser and serializer (request and response).
///
/// Strict on purpose: CRLF line endings, token header names, no obsolete line folding, no control
/// characters in values. Bounds: ``Limits/maxHeadBytes`` (terminator included) and
/// ``Limits/maxHeaderCount``.
package enum HTTPHeadCodec {
  /// Size limits for one head.
  package struct Limits: Sendable, Hashable {
    /// The largest head accepted, in bytes, including the final blank line; 16 KiB by default.
    package var maxHeadBytes: Int
    /// The most header lines accepted; 100 by default.
    package var maxHeaderCount: Int

    /// Creates limits.
    /// - Parameters:
    ///   - maxHeadBytes: The largest head in bytes.
    ///   - maxHeaderCount: The most header lines.
    package init(maxHeadBytes: Int = 16 * 1024, maxHeaderCount: Int = 100) {
      self.maxHeadBytes = maxHeadBytes
      self.maxHeaderCount = maxHeaderCount
    }
  }

  /// The length of the head at the start of `bytes` (through `\r\n\r\n`), or `nil` when more
  /// bytes are needed.
  /// - Parameters:
  ///   - bytes: The bytes received so far.
  ///   - limits: The size limits.
  /// - Returns: The head length, or `nil` if the terminator has not arrived yet.
  /// - Throws: ``HTTPHeadError/tooLarge`` when no terminator appears within the limit,
  ///   ``HTTPHeadError/malformedHeader`` for a line ending in a bare LF.
  package static func headLength(
    in bytes: some RandomAccessCollection<UInt8>, limits: Limits = Limits()
  ) throws(HTTPHeadError) -> Int? {
    let count = bytes.count
    let scanLimit = min(count, limits.maxHeadBytes)
    var index = bytes.startIndex
    var offset = 0
    var state = 0  // how many of "\r\n\r\n" have been matched
    while offset < scanLimit {
      let byte = bytes[index]
      switch (state, byte) {
      case (0, 13), (2, 13): state += 1
      case (1, 10), (3, 10): state += 1
      case (_, 13): state = 1
      // A bare LF: lines must end with CRLF. Refused at once instead of waiting for a
      // terminator that will never come.
      case (_, 10): throw .malformedHeader
      default: state = 0
      }
      offset += 1
      if state == 4 { return offset }
      index = bytes.index(after: index)
    }
    if count >= limits.maxHeadBytes { throw .tooLarge }
    return nil
  }

  /// Parses a complete request head (as delimited by ``headLength(in:limits:)``).
  /// - Parameters:
  ///   - head: The head bytes, including the final blank line.
  ///   - limits: The size limits.
  /// - Returns: The parsed head.
  /// - Throws: ``HTTPHeadError``.
  package static func parseRequest(
    _ head: some Collection<UInt8>, limits: Limits = Limits()
  ) throws(HTTPHeadError) -> HTTPRequestHead {
    let (startLine, headers) = try split(head, limits: limits)
    let parts = startLine.split(separator: 0x20, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte),
      !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
      isHTTP1Version(parts[2])
    else { throw .malformedStartLine }
    return HTTPRequestHead(
      method: String(decoding: parts[0], as: UTF8.self),
      target: String(decoding: parts[1], as: UTF8.self), headers: headers,
      version: String(decoding: parts[2], as: UTF8.self))
  }

  /// Parses a complete response head (as delimited by ``headLength(in:limits:)``).
  /// - Parameters:
  ///   - head: The head bytes, including the final blank line.
  ///   - limits: The size limits.
  /// - Returns: The parsed head.
  /// - Throws: ``HTTPHeadError``.
  package static func parseResponse(
    _ head: some Collection<UInt8>, limits: Limits = Limits()
  ) throws(HTTPHeadError) -> HTTPResponseHead {
    let (startLine, headers) = try split(head, limits: limits)
    let parts = startLine.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count >= 2, isHTTP1Version(parts[0]), parts[1].count == 3,
      parts[1].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let status = Int(String(decoding: parts[1], as: UTF8.self)), status >= 100
    else { throw .malformedStartLine }
    let reason = parts.count == 3 ? parts[2] : []
    guard reason.allSatisfy(isFieldValueByte) else { throw .malformedStartLine }
    return HTTPResponseHead(
      status: status, reason: String(decoding: reason, as: UTF8.self), headers: headers)
  }

  /// A `content-length` value: one or more ASCII digits only (RFC 9110 §8.6), so `+5`, `-0`,
  /// ` 5` and `5, 5` are refused, and no value that overflows `Int`.
  /// - Parameter text: The field value.
  /// - Returns: The length, or `nil` when the value is not a valid length.
  package static func contentLength(_ text: String) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return Int(text)
  }

  /// Whether a header can be written as one HTTP/1.1 field line: a token name and a value
  /// without CR, LF or other control characters (no header injection).
  /// - Parameters:
  ///   - name: The header name.
  ///   - value: The header value.
  /// - Returns: `true` when the field is safe to serialize.
  package static func isValidField(name: String, value: String) -> Bool {
    !name.isEmpty && name.utf8.allSatisfy(isTokenByte) && value.utf8.allSatisfy(isFieldValueByte)
  }

  static func serialize(startLine: String, headers: HTTPHeaders) -> [UInt8] {
    // Appended as bytes from each string's storage: building one string by interpolation cost
    // about three times as much.
    let fields = headers.fields.sorted(by: { $0.key < $1.key })
    var out: [UInt8] = []
    out.reserveCapacity(
      fields.reduce(startLine.utf8.count + 4) { $0 + $1.key.utf8.count + $1.value.utf8.count + 4 })
    func append(_ text: String) {
      var text = text
      text.withUTF8 { out.append(contentsOf: $0) }
    }
    append(startLine)
    out.append(contentsOf: [13, 10])
    for (name, value) in fields {
      append(name)
      out.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
      append(value)
      out.append(contentsOf: [13, 10])
    }
    out.append(contentsOf: [13, 10])
    return out
  }

  private static func split(
    _ head: some Collection<UInt8>, limits: Limits
  ) throws(HTTPHeadError) -> (ArraySlice<UInt8>, HTTPHeaders) {
    let bytes = Array(head)
    guard bytes.count <= limits.maxHeadBytes else { throw .tooLarge }
    guard bytes.count >= 4, bytes.suffix(4).elementsEqual([13, 10, 13, 10]) else {
      throw .malformedStartLine
    }
    var lines: [ArraySlice<UInt8>] = []
    var lineStart = 0
    var index = 0
    let end = bytes.count - 2  // the final CRLF of the blank line
    while index < end {
      if bytes[index] == 13 {
        guard bytes[index + 1] == 10 else { throw .malformedHeader }
        lines.append(bytes[lineStart..<index])
        index += 2
        lineStart = index
      } else if bytes[index] == 10 || bytes[index] == 0 {
        throw .malformedHeader
      } else {
        index += 1
      }
    }
    guard let startLine = lines.first, !startLine.isEmpty else { throw .malformedStartLine }
    guard lines.count - 1 <= limits.maxHeaderCount else { throw .tooManyHeaders }
    var headers = HTTPHeaders()
    headers.reserveCapacity(lines.count - 1)
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex else {
        throw .malformedHeader
      }
      let name = line[line.startIndex..<colon]
      guard name.allSatisfy(isTokenByte) else { throw .malformedHeader }
      guard line[(colon + 1)...].allSatisfy(isFieldValueByte) else { throw .malformedHeader }
      // The value without surrounding optional whitespace, as a slice of the contiguous bytes
      // (trimming through two reversed views made `String(decoding:)` copy byte by byte).
      var valueStart = colon + 1
      var valueEnd = line.endIndex
      while valueStart < valueEnd, isOptionalWhitespace(bytes[valueStart]) { valueStart += 1 }
      while valueEnd > valueStart, isOptionalWhitespace(bytes[valueEnd - 1]) { valueEnd -= 1 }
      // A name is token bytes, all ASCII: lowercased here as `String.lowercased()` would.
      let key = String(unsafeUninitializedCapacity: name.count) { buffer in
        for (offset, byte) in name.enumerated() {
          buffer[offset] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        }
        return name.count
      }
      headers.append(
        String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self), forLowercased: key)
    }
    return (startLine, headers)
  }

  private static func isHTTP1Version(_ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.elementsEqual("HTTP/1.1".utf8) || bytes.elementsEqual("HTTP/1.0".utf8)
  }

  private static func isOptionalWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

  private static func isFieldValueByte(_ byte: UInt8) -> Bool {
    byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
  }

  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    // ! # $ % & ' * + - . ^ _ ` | ~
    case 0x21, 0x23...0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E...0x60, 0x7C, 0x7E: return true
    default: return false
    }
  }
}
