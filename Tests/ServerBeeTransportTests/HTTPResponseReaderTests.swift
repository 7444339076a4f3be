import Foundation
import ServerBeeModels
import Testing

@_spi(Fuzzing) @testable import ServerBeeTransport

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
}
