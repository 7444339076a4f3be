import Foundation
import Testing

@testable import ServerBeeModels

@Suite struct ServerURLTests {
  @Test(arguments: [
    ("https://monitor.example.com:9527", "https://monitor.example.com:9527"),
    ("HTTPS://Monitor.Example.COM/", "https://monitor.example.com"),
    ("https://monitor.example.com:443", "https://monitor.example.com"),
    ("http://10.0.0.5:80/", "http://10.0.0.5"),
    ("http://127.0.0.1:9527", "http://127.0.0.1:9527"),
    ("  https://a.example//  ", "https://a.example"),
    ("https://a.example/serverbee/", "https://a.example/serverbee"),
    ("http://[::1]:8080", "http://[::1]:8080"),
    ("https://[2001:DB8::1]", "https://[2001:db8::1]"),
  ])
  func normalisesAsTheV2ContractDescribes(input: String, expected: String) throws {
    #expect(try ServerURL(input).string == expected)
  }

  @Test(arguments: [
    "", "monitor.example.com", "ftp://monitor.example.com", "https://user:pw@monitor.example.com",
    "https://monitor.example.com/?x=1", "https://monitor.example.com/#top", "https://:9527",
    "https://monitor.example.com:0", "https://monitor.example.com:70000",
    "https://monitor.example.com:abc", "https://mon itor.example.com", "https://[::1",
    // Found by probes: a bracket in a name, an unbracketed second colon, junk in
    // an IPv6 literal, non-ASCII look-alikes.
    "http://a[b:47999", "http://127.0.0.1:44405:80", "http://a]b", "https://[::g]",
    "https://[1.2.3.4]", "https://mönitor.example",
  ])
  func refusesWhatIsNotAServerBaseURL(input: String) {
    #expect {
      try ServerURL(input)
    } throws: { error in
      (error as? ServerBeeModelsError)?.code == .invalidServerURL
    }
  }

  @Test(arguments: [
    ("http://127.0.0.1:9527", true), ("http://127.1.2.3", true), ("http://localhost:1", true),
    ("http://[::1]:8080", true), ("http://127.evil.example", false),
    ("http://127.0.0.1.evil.example", false), ("http://128.0.0.1", false),
    ("http://127.0.0.256", false), ("http://monitor.example", false),
  ])
  func loopbackIsOnlyTheLoopbackAddressesNotNamesThatStartLikeThem(
    input: String, loopback: Bool
  ) throws {
    #expect(try ServerURL(input).isLoopback == loopback)
  }

  @Test(arguments: [
    "HTTPS://Monitor.Example.COM:443//x//", "http://[::1]:80/", "http://127.0.0.1:9527/a/",
    "https://a.example/serverbee", "http://10.0.0.5:8080",
  ])
  func normalisingTwiceGivesTheSameURL(input: String) throws {
    let once = try ServerURL(input)
    #expect(try ServerURL(once.string) == once)
    #expect(try ServerURL(once.url.absoluteString) == once)
  }

  /// Found by `fuzz-server-url`: such paths were kept, then `url` percent-encoded them (so its
  /// text was not the normalised text) and `endpoint(_:)` fell back to the bare base URL.
  @Test(arguments: [
    "http://127.0.0.1:9527/a\u{18}", "https://a.example/caf\u{E9}", "https://a.example/a<b",
    "https://a.example/100%", "https://a.example/%zz", "https://a.example/a\\b",
    "https://a.example/{x}", "https://a.example/a|b", "https://a.example/a\"b",
  ])
  func pathsWithCharactersAURLCannotHoldAreRefused(input: String) {
    #expect {
      try ServerURL(input)
    } throws: { ($0 as? ServerBeeModelsError)?.code == .invalidServerURL }
  }

  @Test(arguments: ["https://a.example/%E2%82%AC", "https://a.example/a:b@c;d=e,f(g)!$&'*+~_-."])
  func percentEncodedAndReservedPathCharactersAreKept(input: String) throws {
    let server = try ServerURL(input)
    #expect(server.url.absoluteString == server.string)
    #expect(server.endpoint("/api/servers").absoluteString == server.string + "/api/servers")
  }

  @Test func aValidPathSurvivesTheURLUnchanged() throws {
    let server = try ServerURL("https://a.example/serverbee/v2")
    #expect(server.url.absoluteString == "https://a.example/serverbee/v2")
  }

  @Test func buildsAPIAndWebSocketEndpoints() throws {
    let secure = try ServerURL("https://monitor.example.com:9527")
    #expect(
      secure.endpoint("/api/alert-events?limit=20").absoluteString
        == "https://monitor.example.com:9527/api/alert-events?limit=20")
    #expect(
      secure.webSocketEndpoint("/api/ws/servers").absoluteString
        == "wss://monitor.example.com:9527/api/ws/servers")
    let plain = try ServerURL("http://127.0.0.1:8080")
    #expect(
      plain.webSocketEndpoint("/api/ws/servers").absoluteString
        == "ws://127.0.0.1:8080/api/ws/servers")
    #expect(!plain.isSecure)
    #expect(plain.isLoopback)
    #expect(plain.effectivePort == 8080)
    #expect(secure.isSecure)
  }
}

@Suite struct PairingPayloadTests {
  private let scanned =
    #"{"type":"serverbee_pair","server_url":"https://monitor.example.com:9527","code":"sb_pair_Xy4bq0c9V1fZ2mKp8LwR3tN6hJ5sD7gA1eU0iO2yT9w"}"#

  @Test func parsesTheWebAppQRText() throws {
    let payload = try PairingPayload(scanned: scanned)
    #expect(payload.server.string == "https://monitor.example.com:9527")
    #expect(payload.code == "sb_pair_Xy4bq0c9V1fZ2mKp8LwR3tN6hJ5sD7gA1eU0iO2yT9w")
  }

  @Test func writesTheSameBytesTheWebAppDraws() throws {
    #expect(try PairingPayload(scanned: scanned).qrText == scanned)
  }

  @Test func stripsOneTrailingSlashAndMatchesTheSavedServer() throws {
    let payload = try PairingPayload(
      scanned:
        #"{"type":"serverbee_pair","server_url":"https://Monitor.example.com:443/","code":"sb_pair_x"}"#
    )
    #expect(payload.server == (try ServerURL("https://monitor.example.com")))
  }

  @Test(arguments: [
    "sb_pair_x", "https://monitor.example.com", "[1,2]", "",
    #"{"type":"other","server_url":"https://a.example","code":"sb_pair_x"}"#,
    #"{"server_url":"https://a.example","code":"sb_pair_x"}"#,
    #"{"type":"serverbee_pair","code":"sb_pair_x"}"#,
    #"{"type":"serverbee_pair","server_url":"https://a.example","code":""}"#,
    #"{"type":"serverbee_pair","server_url":"https://a.example","code":42}"#,
    #"{"type":"serverbee_pair","server_url":"","code":"sb_pair_x"}"#,
  ])
  func refusesPayloadsThatAreNotServerBeePairing(text: String) {
    #expect {
      try PairingPayload(scanned: text)
    } throws: { error in
      (error as? ServerBeeModelsError)?.code == .invalidPairingPayload
    }
  }

  @Test func refusesAPayloadWithAnUnusableServerURL() {
    #expect {
      try PairingPayload(
        scanned: #"{"type":"serverbee_pair","server_url":"ftp://a.example","code":"sb_pair_x"}"#)
    } throws: { error in
      (error as? ServerBeeModelsError)?.code == .invalidServerURL
    }
  }

  @Test func refusesOversizeText() {
    let text = String(repeating: " ", count: PairingPayload.maximumLength + 1)
    #expect(throws: ServerBeeModelsError.self) { try PairingPayload(scanned: text) }
  }

  @Test func neverPrintsTheCode() throws {
    let payload = try PairingPayload(scanned: scanned)
    #expect(!"\(payload)".contains("sb_pair_"))
    #expect(!String(reflecting: payload).contains("sb_pair_"))
  }
}
