import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Request bodies are read as strictly as `serde_json` reads them on a real server: a byte
/// order mark is a 400, a key given twice a 422, both plain text (Protocol/README.md §5), on
/// every route that reads a body.
@Suite(.timeLimit(.minutes(2))) struct StrictJSONTests {
  static let syntaxText = "Failed to parse the request body as JSON"
  static let bom = Data([0xEF, 0xBB, 0xBF])

  static func duplicateText(_ field: String) -> String {
    "Failed to deserialize the JSON body into the target type: duplicate field `\(field)`"
  }

  /// One route of each area, a body that repeats a key the route reads, and the key.
  static let routes: [(area: String, method: HTTPMethod, path: String, body: String, key: String)] =
    [
      (
        "mobile auth", .post, "/api/mobile/auth/login",
        #"{"username":"admin","username":"admin","password":"pw","installation_id":"i","device_name":"d"}"#,
        "username"
      ),
      (
        "recovery", .post, "/api/mobile/auth/recover",
        #"{"expected_user_id":"a","expected_user_id":"b"}"#, "expected_user_id"
      ),
      (
        "legacy push", .post, "/api/mobile/push/register",
        #"{"device_token":"aa","device_token":"bb"}"#, "device_token"
      ),
      (
        "encrypted push", .put, "/api/mobile/push/settings",
        #"{"expected_revision":0,"expected_revision":0,"preferences":{"enabled":true,"alerts":true,"security":false,"task_failure":false,"task_success":false}}"#,
        "expected_revision"
      ),
      (
        "control", .post, "/__simulator/users",
        #"{"username":"x","username":"y","password":"p","role":"member"}"#, "username"
      ),
      ("push control", .put, "/__simulator/push/relay", #"{"url":null,"url":null}"#, "url"),
    ]

  /// A harness with an admin signed in on a mobile login (for the routes that need one).
  func signedIn() async throws -> (Harness, String) {
    let h = try Harness()
    await h.user("admin")
    let tokens = try #require(await h.login("admin").1)
    return (h, tokens.access)
  }

  func send(_ h: Harness, _ index: Int, body: Data, bearer: String) async -> Harness.Reply {
    let route = Self.routes[index]
    return await h.send(
      route.method, route.path, raw: body, bearer: bearer,
      control: route.path.hasPrefix("/__simulator"))
  }

  @Test(arguments: routes.indices)
  func aDuplicatedKeyIsThePlainText422(_ index: Int) async throws {
    let (h, access) = try await signedIn()
    let route = Self.routes[index]
    let reply = await send(h, index, body: Data(route.body.utf8), bearer: access)
    #expect(reply.status == 422, "\(route.area)")
    #expect(reply.text == Self.duplicateText(route.key), "\(route.area)")
  }

  @Test(arguments: routes.indices)
  func aByteOrderMarkIsThePlainText400(_ index: Int) async throws {
    let (h, access) = try await signedIn()
    let route = Self.routes[index]
    // The same body without the repeat would be read; with a BOM in front it is not JSON.
    let body = Self.bom + Data(#"{"username":"x","password":"p","url":null}"#.utf8)
    let reply = await send(h, index, body: body, bearer: access)
    #expect(reply.status == 400, "\(route.area)")
    #expect(reply.text == Self.syntaxText, "\(route.area)")
  }

  @Test func aDuplicateInsideANestedObjectNamesItsPath() async throws {
    let (h, access) = try await signedIn()
    let body = #"""
      {"expected_revision":0,"preferences":{"enabled":true,"enabled":false,"alerts":true,
      "security":false,"task_failure":false,"task_success":false}}
      """#
    let reply = await h.send(
      .put, "/api/mobile/push/settings", raw: Data(body.utf8), bearer: access)
    #expect(reply.status == 422)
    #expect(
      reply.text
        == "Failed to deserialize the JSON body into the target type: preferences: duplicate field `enabled`"
    )
  }

  @Test func theBodyWithoutTheRepeatIsStillAccepted() async throws {
    let (h, _) = try await signedIn()
    let reply = await h.send(
      .post, "/api/mobile/auth/login",
      raw: Data(
        #"{"username":"admin","password":"pw","installation_id":"i","device_name":"d"}"#.utf8))
    #expect(reply.status == 200)
  }

  // MARK: The reader alone

  static let accepted: [String] = [
    "{}", " [] ", "0", "-0.5e+3", "\"\"", "true", "null",
    #"{"a":[1,-0.5E-3,true,false,null,"\u00e9\ud83d\ude00 é"],"b":{"a":1}}"#,
    #"[{"a":1},{"a":2}]"#, "{\"a\":1}\n\r\t ",
  ]

  @Test(arguments: accepted)
  func wellFormedJSONIsAccepted(_ text: String) throws {
    try StrictJSON.check(Data(text.utf8))
  }

  static let syntaxErrors: [[UInt8]] = [
    [], [0xEF, 0xBB, 0xBF] + Array("{}".utf8), Array("{\"a\":1,}".utf8), Array("01".utf8),
    Array("{\"a\":\"\\ud800\"}".utf8), Array("\"\\udc00\"".utf8), Array("\"a\u{01}\"".utf8),
    Array("{} x".utf8), Array("{}{}".utf8), Array("[1,]".utf8), Array("{'a':1}".utf8),
    Array("NaN".utf8), Array("1.".utf8), Array("-".utf8), Array("\"\\x\"".utf8),
    [0x22, 0xFF, 0x22], Array("tru".utf8), Array("{\"a\" 1}".utf8),
  ]

  @Test(arguments: syntaxErrors)
  func anythingElseIsASyntaxError(_ bytes: [UInt8]) {
    #expect(throws: StrictJSON.Failure.syntax) { try StrictJSON.check(Data(bytes)) }
  }

  @Test func duplicatesAreFoundByValueAtAnyDepth() {
    #expect(throws: StrictJSON.Failure.duplicateKey(path: "", key: "a")) {
      try StrictJSON.check(Data(#"{"a":1,"\u0061":2}"#.utf8))
    }
    #expect(throws: StrictJSON.Failure.duplicateKey(path: "p.q", key: "x")) {
      try StrictJSON.check(Data(#"{"p":{"q":{"x":1,"x":2}}}"#.utf8))
    }
    #expect(throws: StrictJSON.Failure.duplicateKey(path: "l[1]", key: "k")) {
      try StrictJSON.check(Data(#"{"l":[{"k":1},{"k":1,"k":1}]}"#.utf8))
    }
  }

  static let sameValue: [String] =
    accepted + [
      #"{"event_id":"0f8fad5b-d9cb-469f-a165-70867728950e","expected_revision":3}"#,
      #"[0,-1,123456789012345,-123456789012345,"\"\\\/\b\f\n\r\t",{}]"#,
      #"{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":{"\u0061":[]}}"#,
    ]

  /// The value read in the checking pass is the one `JSONDecoder` makes, and numbers that are
  /// not small integers are left to `JSONDecoder`.
  @Test(arguments: sameValue)
  func theValueReadWhileCheckingIsTheDecodersValue(_ text: String) throws {
    let data = Data(text.utf8)
    let decoded = try WireJSON.decode(JSONValue.self, from: data)
    if let parsed = try StrictJSON.parse(data) {
      #expect(parsed == decoded)
    } else {
      // Only the two texts with a fraction (`-0.5e+3`, `-0.5E-3`) go to the decoder.
      #expect(text.contains("-0.5"))
    }
  }

  @Test func numbersOtherThanSmallIntegersAreLeftToTheDecoder() throws {
    for text in ["1.5", "[1e3]", "-0", #"{"a":1234567890123456}"#, "0.0"] {
      #expect(try StrictJSON.parse(Data(text.utf8)) == nil, "\(text)")
    }
    #expect(try StrictJSON.parse(Data("-123456789012345".utf8)) == .number(-123_456_789_012_345))
  }

  @Test func membersKeepTheirWireOrder() throws {
    let value = try StrictJSON.parse(Data(#"{"b":1,"a":2,"c":{"z":true,"y":null}}"#.utf8))
    guard case .object(let members) = value, case .object(let nested) = members.last?.value else {
      Issue.record("not an object: \(String(describing: value))")
      return
    }
    #expect(members.map(\.key) == ["b", "a", "c"])
    #expect(nested.map(\.key) == ["z", "y"])
  }

  @Test func aRepeatIsFoundAmongManyMembers() {
    let members = (1...20).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
    #expect(throws: StrictJSON.Failure.duplicateKey(path: "", key: "k3")) {
      try StrictJSON.check(Data("{\(members),\"k3\":0}".utf8))
    }
  }

  @Test func nestingStopsAtSerdesRecursionLimit() throws {
    let deepest = StrictJSON.maximumDepth
    try StrictJSON.check(
      Data((String(repeating: "[", count: deepest) + String(repeating: "]", count: deepest)).utf8))
    let tooDeep =
      String(repeating: "[", count: deepest + 1)
      + String(repeating: "]", count: deepest + 1)
    #expect(throws: StrictJSON.Failure.syntax) { try StrictJSON.check(Data(tooDeep.utf8)) }
    let hostile = Data(repeating: UInt8(ascii: "["), count: 1 << 20)
    #expect(throws: StrictJSON.Failure.syntax) { try StrictJSON.check(hostile) }
  }
}
