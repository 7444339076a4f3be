/// One HTTP/2 request: the method, path and headers (the connection adds `:scheme` and
/// `:authority`), and the body.
///
/// ```swift
/// let request = HTTP2Request(
///   method: "POST", path: "/3/device/\(token)",
///   headers: [HPACKField("apns-topic", "app.serverbee")], body: Array(payload))
/// ```
package struct HTTP2Request: Sendable {
  package var method: String
  package var path: String
  /// Regular (lowercase) header fields, in order; never pseudo-headers.
  package var headers: [HPACKField]
  package var body: [UInt8]

  package init(method: String, path: String, headers: [HPACKField] = [], body: [UInt8] = []) {
    self.method = method
    self.path = path
    self.headers = headers
    self.body = body
  }
}

/// One HTTP/2 response: the status, the regular header fields and the body.
///
/// ```swift
/// let response = try await connection.send(request, deadline: .now + .seconds(5))
/// response.status                  // 200
/// response.header("apns-id")       // "…"
/// ```
package struct HTTP2Response: Sendable, Hashable {
  package var status: Int
  /// Regular header fields (and trailers), in order; no pseudo-headers.
  package var headers: [HPACKField]
  package var body: [UInt8]

  package init(status: Int, headers: [HPACKField] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The first value of the header `name` (lowercase), if any.
  package func header(_ name: String) -> String? {
    headers.first { $0.name == name }?.value
  }
}
