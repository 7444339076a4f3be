import COpenSSL
package import Foundation
import ServerBeeCore
import ServerBeeModels
package import ServerBeeTransport

/// The RFC 6455 §4 opening handshake for both roles: building and checking the upgrade request
/// and the `101 Switching Protocols` response.
package enum WebSocketHandshake {
  /// The GUID appended to the key before hashing (RFC 6455 §1.3).
  static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

  /// `base64(SHA-1(key + GUID))`, the expected `Sec-WebSocket-Accept`.
  /// - Parameter key: The client's `Sec-WebSocket-Key`.
  /// - Returns: The accept value.
  package static func acceptValue(forKey key: String) -> String {
    let input = Array((key + guid).utf8)
    var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
    _ = SHA1(input, input.count, &digest)
    return Data(digest).base64EncodedString()
  }

  /// A fresh random `Sec-WebSocket-Key` (16 random bytes, base64).
  /// - Returns: The key.
  package static func randomKey() -> String {
    Base64.encode(SecureRandom.bytes(16))
  }

  /// The client's upgrade request.
  /// - Parameters:
  ///   - url: The `ws`/`wss` URL.
  ///   - key: The `Sec-WebSocket-Key`.
  ///   - headers: Extra headers (for example `authorization`); they cannot replace the
  ///     handshake's own fields.
  ///   - extensions: The `Sec-WebSocket-Extensions` offer, if any.
  /// - Returns: The request head.
  package static func clientRequest(
    url: URL, key: String, headers: HTTPHeaders, extensions: String?
  ) -> HTTPRequestHead {
    var all = headers
    let host = url.host ?? ""
    let hostText = host.contains(":") ? "[\(host)]" : host
    let defaultPort = url.scheme?.lowercased() == "wss" ? 443 : 80
    if let port = url.port, port != defaultPort {
      all["host"] = "\(hostText):\(port)"
    } else {
      all["host"] = hostText
    }
    all["upgrade"] = "websocket"
    all["connection"] = "Upgrade"
    all["sec-websocket-key"] = key
    all["sec-websocket-version"] = "13"
    all["sec-websocket-extensions"] = extensions
    // Keep the percent-encoding: `url.path` would decode `%20` into a space.
    let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    let path = components?.percentEncodedPath ?? ""
    var target = path.isEmpty ? "/" : path
    if let query = components?.percentEncodedQuery { target += "?" + query }
    return HTTPRequestHead(method: "GET", target: target, headers: all)
  }

  /// Checks the server's response to a client upgrade request.
  /// - Parameters:
  ///   - response: The response head.
  ///   - key: The key the client sent.
  ///   - offeredCompression: Whether permessage-deflate was offered.
  /// - Returns: The negotiated permessage-deflate parameters, or `nil`.
  /// - Throws: ``ServerBeeTransportError``: `upgradeRejected` (status in `httpStatus`) or
  ///   `handshakeInvalid`.
  package static func validateResponse(
    _ response: HTTPResponseHead, key: String, offeredCompression: Bool
  ) throws(ServerBeeTransportError) -> PerMessageDeflateParameters? {
    guard response.status == 101 else {
      throw ServerBeeTransportError(
        .upgradeRejected, "the server answered the upgrade with HTTP \(response.status)",
        httpStatus: response.status)
    }
    guard response.headers["upgrade"]?.lowercased() == "websocket",
      hasToken("upgrade", in: response.headers["connection"])
    else {
      throw ServerBeeTransportError(.handshakeInvalid, "missing Upgrade/Connection headers")
    }
    guard response.headers["sec-websocket-accept"] == acceptValue(forKey: key) else {
      throw ServerBeeTransportError(.handshakeInvalid, "wrong Sec-WebSocket-Accept")
    }
    guard response.headers["sec-websocket-protocol"] == nil else {
      throw ServerBeeTransportError(
        .handshakeInvalid, "the server chose an unrequested subprotocol")
    }
    let extensions = response.headers["sec-websocket-extensions"]
    if !offeredCompression, extensions != nil {
      throw ServerBeeTransportError(.handshakeInvalid, "the server chose an unrequested extension")
    }
    do {
      return try PerMessageDeflateParameters.acceptResponse(extensions)
    } catch {
      throw ServerBeeTransportError(.handshakeInvalid, error.detail)
    }
  }

  /// Checks a client's upgrade request (server side).
  /// - Parameter request: The request head.
  /// - Returns: The client's key.
  /// - Throws: ``HandshakeProblem`` naming what is wrong; answer with 400 (or 426 for a version).
  package static func validateRequest(_ request: HTTPRequestHead) throws(HandshakeProblem) -> String
  {
    guard request.method == "GET" else { throw HandshakeProblem("the upgrade must be a GET") }
    guard request.headers["upgrade"]?.lowercased() == "websocket",
      hasToken("upgrade", in: request.headers["connection"])
    else { throw HandshakeProblem("missing Upgrade/Connection headers") }
    guard request.headers["sec-websocket-version"] == "13" else {
      throw HandshakeProblem("unsupported Sec-WebSocket-Version")
    }
    guard let key = request.headers["sec-websocket-key"],
      let decoded = Data(base64Encoded: key), decoded.count == 16
    else { throw HandshakeProblem("bad Sec-WebSocket-Key") }
    return key
  }

  /// The server's `101 Switching Protocols` response.
  /// - Parameters:
  ///   - key: The client's key.
  ///   - extensions: The `Sec-WebSocket-Extensions` response, if compression was accepted.
  /// - Returns: The response head.
  package static func switchingProtocols(key: String, extensions: String?) -> HTTPResponseHead {
    var headers: HTTPHeaders = [
      "upgrade": "websocket", "connection": "Upgrade",
      "sec-websocket-accept": acceptValue(forKey: key),
    ]
    headers["sec-websocket-extensions"] = extensions
    return HTTPResponseHead(status: 101, reason: "Switching Protocols", headers: headers)
  }

  private static func hasToken(_ token: String, in value: String?) -> Bool {
    guard let value else { return false }
    return value.split(separator: ",").contains {
      $0.trimmingCharacters(in: .whitespaces).lowercased() == token
    }
  }
}
