import Foundation
import ServerBeeModels
import Testing

@_spi(Fuzzing) @testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

/// SocketHTTPTransport's response reader on bytes in memory: the result must not depend on how
/// the bytes arrive. Regressions found by `fuzz-http-response`.
@Suite struct HTTPResponseReaderTests {
  static let closeDelimited = Array(
    "HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n\(String(repeating: "x", count: 125))"
      .utf8)

  @Test(arguments: [[], [1], [4], [64]])
  func aCloseDelimitedBodyOverTheLimitIsRefusedHoweverItArrives(readSizes: [Int]) {
    #expect {
      try SocketHTTPTransport.readResponse(
        from: Self.closeDelimited, readSizes: readSizes, limit: 32)
    } throws: { ($0 as? ServerBeeTransportError)?.code == .responseTooLarge }
  }

  @Test(arguments: [[], [1], [7]])
  func aCloseDelimitedBodyWithinTheLimitIsReadWhole(readSizes: [Int]) throws {
    let response = try SocketHTTPTransport.readResponse(
      from: Self.closeDelimited, readSizes: readSizes, limit: 125)
    #expect(response.status == 502 && response.body.count == 125)
  }

  @Test(arguments: ["+5", "-0", "0x5", "5, 5", "", "99999999999999999999"])
  func aContentLengthThatIsNotOnlyDigitsIsRefused(value: String) {
    let response = Array("HTTP/1.1 200 OK\r\nContent-Length: \(value)\r\n\r\nhello".utf8)
    #expect {
      try SocketHTTPTransport.readResponse(from: response, readSizes: [], limit: 1024)
    } throws: { ($0 as? ServerBeeTransportError)?.code == .malformedHTTPHead }
  }

  @Test(arguments: [[], [1], [4096]])
  func aChunkLineOverItsLimitIsRefusedHoweverItArrives(readSizes: [Int]) {
    let line = "5;" + String(repeating: "e", count: 9000)
    let response = Array(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(line)\r\nhello\r\n0\r\n\r\n".utf8)
    #expect {
      try SocketHTTPTransport.readResponse(from: response, readSizes: readSizes, limit: 1 << 20)
    } throws: { ($0 as? ServerBeeTransportError)?.code == .malformedHTTPHead }
  }
}
