import Foundation
import ServerBeeModels
import Testing

@testable import ServerBeeTransport

/// Printing, interpolating or dumping a request or response never shows a credential.
@Suite struct HTTPDescriptionTests {
  static let secrets = ["Bearer sk-secret-token", "session_token=cookie-secret", "serverbee_key1"]

  func request() throws -> HTTPRequest {
    HTTPRequest(
      method: .post, url: try #require(URL(string: "https://monitor.example.com/api/servers")),
      headers: [
        "Authorization": Self.secrets[0], "Cookie": Self.secrets[1], "X-API-Key": Self.secrets[2],
        "Accept": "application/json",
      ], body: Data(#"{"password":"hunter2"}"#.utf8))
  }

  @Test func descriptionsRedactCredentialsAndOmitTheBody() throws {
    let request = try request()
    var dumped = ""
    dump(request, to: &dumped)
    for text in ["\(request)", String(describing: request), String(reflecting: request), dumped] {
      for secret in Self.secrets + ["hunter2"] {
        #expect(!text.contains(secret), "\(text)")
      }
      #expect(text.contains("<redacted>"))
    }
    #expect("\(request)".contains("accept: application/json"))
    #expect("\(request)".contains("POST https://monitor.example.com/api/servers"))
  }

  @Test func responsesRedactSetCookieAndOmitTheBody() {
    let response = HTTPResponse(
      status: 200, headers: ["Set-Cookie": "session_token=abc123"],
      body: Data(#"{"access_token":"tok-1"}"#.utf8))
    var dumped = ""
    dump(response, to: &dumped)
    for text in ["\(response)", dumped] {
      #expect(!text.contains("abc123") && !text.contains("tok-1"))
    }
    #expect("\(response)".hasPrefix("HTTP 200"))
  }
}
