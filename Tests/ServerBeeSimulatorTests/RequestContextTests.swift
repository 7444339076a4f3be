import Foundation
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// A request's path segments and query, read without `URLComponents` for a plain path, are
/// what `URLComponents` reads.
@Suite struct RequestContextTests {
  static let urls = [
    "http://127.0.0.1:8080/api/mobile/push/test", "http://127.0.0.1:1/api/mobile/push/test/abc-1",
    "https://localhost/", "http://127.0.0.1:80//api//servers/", "http://h/a/./b/../c~_-.x",
    "http://127.0.0.1:9/api/servers?limit=3", "http://127.0.0.1:9/api/a%20b", "http://h/a#f",
    "http://user@h/a", "http://[::1]:8/api", "http://h/a;b=c", "http://h/a+b",
  ]

  @Test(arguments: urls)
  func segmentsAndQueryAreThoseOfURLComponents(_ text: String) throws {
    let url = try #require(URL(string: text))
    let context = RequestContext(HTTPRequest(method: .get, url: url), remoteAddress: "127.0.0.1")
    let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    let path = components?.percentEncodedPath ?? url.path
    let segments = path.split(separator: "/").map {
      $0.contains("%") ? String($0).removingPercentEncoding ?? String($0) : String($0)
    }
    #expect(context.segments == segments)
    var query: [String: String] = [:]
    for item in components?.queryItems ?? [] where query[item.name] == nil {
      query[item.name] = item.value ?? ""
    }
    #expect(context.query == query)
  }

  @Test func onlyPlainURLsSkipURLComponents() throws {
    let plain = try #require(URL(string: "http://127.0.0.1:8080/api/mobile/push/test"))
    #expect(PlainURLPath.of(plain) == "/api/mobile/push/test")
    for text in ["http://h/a?b", "http://h/a%41", "http://u@h/a", "ftp://h/a", "http://h/a#f"] {
      #expect(PlainURLPath.of(try #require(URL(string: text))) == nil, "\(text)")
    }
  }
}
