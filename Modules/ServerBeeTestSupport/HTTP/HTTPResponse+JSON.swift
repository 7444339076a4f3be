import Foundation
public import ServerBeeTransport

extension HTTPResponse {
  /// A response with a UTF-8 body, for scripting stubs.
  /// - Parameters:
  ///   - status: The status code.
  ///   - body: The body text (often JSON).
  /// - Returns: The response with `content-type: application/json` when the body is not empty.
  public static func json(_ status: Int, _ body: String) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: body.isEmpty ? [:] : ["content-type": "application/json"],
      body: Data(body.utf8))
  }
}
