#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Descriptions and dumps that never show a credential: `print(request)`, string
/// interpolation, `debugPrint` and `dump` all go through these.
extension HTTPHeaders: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// Header names whose values are credentials; shown as `<redacted>`.
  public static let sensitiveNames: Set<String> = [
    "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key",
    "x-simulator-token", "x-relay-token", "x-serverbee-device-token",
  ]

  /// The fields as `[name: value]`, sorted by name, with credentials redacted.
  public var redacted: [(name: String, value: String)] {
    fields.sorted { $0.key < $1.key }.map {
      (name: $0.key, value: Self.sensitiveNames.contains($0.key) ? "<redacted>" : $0.value)
    }
  }

  /// `[accept: application/json, authorization: <redacted>]`.
  public var description: String {
    "[" + redacted.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
  }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// A mirror of the redacted fields (what `dump` prints).
  public var customMirror: Mirror {
    Mirror(self, children: redacted.map { (label: $0.name, value: $0.value as Any) })
  }
}

extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// `GET https://host/api/servers [headers…] (0-byte body)`: headers redacted, body not shown.
  public var description: String {
    "\(method.rawValue) \(url.absoluteString) \(headers) (\(body.count)-byte body)"
  }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// Method, URL, redacted headers and the body's size (what `dump` prints).
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "method": method.rawValue, "url": url.absoluteString, "headers": headers,
        "bodySize": body.count,
      ])
  }
}

extension HTTPResponse: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// `HTTP 200 [headers…] (123-byte body)`: headers redacted, body not shown (it may hold tokens).
  public var description: String { "HTTP \(status) \(headers) (\(body.count)-byte body)" }

  /// The same as ``description``.
  public var debugDescription: String { description }

  /// Status, redacted headers and the body's size (what `dump` prints).
  public var customMirror: Mirror {
    Mirror(self, children: ["status": status, "headers": headers, "bodySize": body.count])
  }
}
