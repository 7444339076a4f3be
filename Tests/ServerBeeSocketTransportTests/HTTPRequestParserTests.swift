import ServerBeeTransport
import Testing

@testable import ServerBeeSocketTransport

/// The server's request framing as a pure function of the buffered bytes (what
/// `HTTPServerConnection` runs after every read): a `content-length` must be digits only.
@Suite struct HTTPRequestParserTests {
  @Test(arguments: ["+5", "-0", "0x5", "5, 5", "99999999999999999999"])
  func aContentLengthThatIsNotOnlyDigitsIsA400(value: String) {
    let request = Array("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: \(value)\r\n\r\nhello".utf8)
    guard case .reject(let status, _, _) = HTTPRequestParser.parse(request, maxBodySize: 1024)
    else {
      Issue.record("'\(value)' was not refused")
      return
    }
    #expect(status == 400)
  }

  @Test func aDigitsOnlyContentLengthFramesTheBody() {
    let request = Array("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello".utf8)
    guard
      case .complete(_, let body, let consumed) = HTTPRequestParser.parse(
        request, maxBodySize: 1024)
    else {
      Issue.record("a framed request was not complete")
      return
    }
    #expect(body == Array("hello".utf8) && consumed == request.count)
  }
}
