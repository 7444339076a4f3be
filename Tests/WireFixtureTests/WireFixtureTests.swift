import Foundation
import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport
import Testing

/// Fixtures are the oracle: every catalogue route's success payload has a fixture
/// written from the protocol's documented examples (`Documentation/Protocol/`); the SDK's type of the route decodes it, and the
/// simulator's answer has its shape (key set, documented key order, value kinds, time formats).
/// The SDK and the simulator share their model types, so only a check against the documents
/// can catch a key both spell wrong.
@Suite(.timeLimit(.minutes(5))) struct WireFixtureTests {
  /// The routes whose payload is read (every route but the `Ignored` ones), from the catalogue.
  static let routes = RouteCatalogue.all.filter(\.hasPayload)

  @Test func everyCatalogueRouteIsCovered() {
    #expect(Self.routes.count >= 50)
    for route in Self.routes {
      #expect(
        FixtureIndex.specs[route.name] != nil, "\(route.name) \(route.requestLine): no fixture")
      #expect(RouteRecipes.all[route.name] != nil, "\(route.name) \(route.requestLine): no recipe")
    }
    let names = Set(RouteCatalogue.all.map(\.name))
    for name in FixtureIndex.specs.keys.sorted() where !names.contains(name) {
      Issue.record("fixture for \(name), which is no catalogue route")
    }
    for name in RouteRecipes.all.keys.sorted() where !names.contains(name) {
      Issue.record("recipe for \(name), which is no catalogue route")
    }
  }

  /// Every example of every route's fixture decodes with the route's `Response` type, read the
  /// way the SDK's clients read an answer (`RouteClient.payload`).
  @Test(arguments: routes.map(\.name)) func theFixtureDecodesWithTheRoutesType(_ name: String)
    throws
  {
    let spec = try #require(FixtureIndex.specs[name], "\(name): no fixture")
    let examples = try FixtureIndex.examples(spec)
    #expect(!examples.isEmpty)
    for (index, example) in examples.enumerated() {
      #expect(throws: Never.self, "\(name): example \(index) of \(spec.files)") {
        try Self.decode(name, payload: example)
      }
    }
  }

  /// Each fixture's examples agree with each other under its own rules (a fixture whose order
  /// is declared fixed shows one order, and every example has the kinds of the others).
  @Test(arguments: routes.map(\.name)) func theFixtureIsConsistent(_ name: String) throws {
    let spec = try #require(FixtureIndex.specs[name])
    let examples = try FixtureIndex.examples(spec)
    var rules = spec.rules
    rules.mustHaveElements = []
    for example in examples {
      let problems = WireShape.mismatches(example, examples: examples, rules: rules)
      #expect(problems.isEmpty, "\(name): \(problems)")
    }
  }

  /// The simulator answers every catalogue route (with a payload) in the fixture's shape.
  @Test func theSimulatorAnswersEveryRouteInTheFixturesShape() async throws {
    let seed = try await Seed.make()
    var checked = 0
    for route in Self.routes {
      guard let recipe = RouteRecipes.all[route.name], let spec = FixtureIndex.specs[route.name]
      else { continue }  // everyCatalogueRouteIsCovered names it
      do {
        let problems = try await Self.problems(route, recipe, spec, seed)
        for problem in problems { Issue.record(Comment(rawValue: problem)) }
      } catch {
        Issue.record("\(route.name) (\(route.requestLine)): \(error)")
      }
      checked += 1
    }
    #expect(checked == Self.routes.count)
  }

  /// What is wrong with the simulator's answer to `route`; empty when it has the shape.
  static func problems(
    _ route: AnyAPIRoute, _ recipe: RouteRecipes.Recipe, _ spec: FixtureSpec, _ seed: Seed
  ) async throws -> [String] {
    let line = "\(route.name) (\(route.requestLine))"
    let call = try await recipe(seed)
    if route.credential != .none, call.bearer == nil {
      return ["\(line): the recipe sends no credential"]
    }
    var path = try route.template.path(call.values)
    if !call.query.isEmpty {
      path += "?" + call.query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }
    let reply = try await seed.world.send(
      route.method.rawValue, path, body: call.body, bearer: call.bearer)
    guard reply.status == route.successStatus else {
      return ["\(line): status \(reply.status) \(reply.text)"]
    }
    guard let data = reply.json?["data"] else { return ["\(line): no data in \(reply.text)"] }
    var problems = WireShape.mismatches(
      data, examples: try FixtureIndex.examples(spec), rules: spec.rules
    ).map { "\(line): \($0)" }
    do {
      try Self.decode(route.name, payload: data)
    } catch {
      problems.append("\(line): the SDK cannot read the answer: \(error)")
    }
    return problems
  }
}

/// The comparison itself: what it must catch.
@Suite struct WireShapeTests {
  let rules = ShapeRules(orderFixed: true)

  func problems(_ actual: String, _ examples: [String], rules: ShapeRules? = nil) throws
    -> [String]
  {
    WireShape.mismatches(
      try OrderedJSON.parse(actual), examples: try examples.map { try OrderedJSON.parse($0) },
      rules: rules ?? self.rules)
  }

  @Test func aMapsKeysAreFreeButItsValuesAreCompared() throws {
    let example = #"{"labels":{"a":"x"}}"#
    let maps = ShapeRules(orderFixed: false, maps: ["labels"])
    #expect(try problems(#"{"labels":{"b":"y","c":"z"}}"#, [example], rules: maps).isEmpty)
    #expect(try problems(#"{"labels":{"b":1}}"#, [example], rules: maps).count == 1)
    #expect(try problems(#"{"labels":{"b":"y"}}"#, [example]).count == 2)
    #expect(try problems(#"{"labels":{"b":"y"}}"#, [#"{"labels":{}}"#], rules: maps).count == 1)
  }

  @Test func aRenamedMissingOrExtraKeyIsNamed() throws {
    let example = #"{"id":"a","name":"b"}"#
    #expect(try problems(#"{"id":"a","name":"c"}"#, [example]).isEmpty)
    #expect(
      try problems(#"{"id":"a","nam":"b"}"#, [example]) == [
        "data: missing key 'name'", "data: extra key 'nam' (not in the fixture)",
      ])
  }

  @Test func theOrderCountsOnlyWhereFixed() throws {
    let example = #"{"id":"a","name":"b"}"#
    #expect(try problems(#"{"name":"b","id":"a"}"#, [example]).count == 1)
    #expect(
      try problems(#"{"name":"b","id":"a"}"#, [example], rules: ShapeRules(orderFixed: false))
        .isEmpty)
  }

  @Test func kindsTimeFormatsAndNullabilityComeFromTheExamples() throws {
    let zulu = #"{"t":"2026-03-28T10:15:30.123Z","n":1}"#
    let offset = #"{"t":"2026-03-28T10:15:30+00:00","n":null}"#
    #expect(try problems(#"{"t":"2026-03-28T10:15:30Z","n":2.5}"#, [zulu]).isEmpty)
    #expect(try problems(offset, [zulu]).count == 2)
    #expect(try problems(offset, [zulu, offset]).isEmpty)
    #expect(try problems(#"{"t":"2026-03-28","n":1}"#, [zulu]).count == 1)
    #expect(try problems(#"{"t":"x","n":"1"}"#, [zulu]).count == 2)
  }

  @Test func keysSomeExamplesOmitAreOptional() throws {
    let full = #"{"installed":true,"source":"custom"}"#
    let bare = #"{"installed":false}"#
    #expect(try problems(bare, [full, bare]).isEmpty)
    #expect(try problems(bare, [full]) == ["data: missing key 'source'"])
  }

  @Test func everyElementOfAListIsComparedAndAnEmptyListFails() throws {
    let example = #"[{"id":"a"}]"#
    #expect(try problems(#"[{"id":"a"},{"id":"b","x":1}]"#, [example]).count == 1)
    #expect(try problems("[]", [example]).count == 1)
    #expect(try problems("[]", [example, "[]"]).isEmpty)
  }

  @Test func jsonInStringsAndVariantsByKind() throws {
    #expect(try problems(#"{"rules_json":"[1]"}"#, [#"{"rules_json":"[]"}"#]).isEmpty)
    #expect(try problems(#"{"rules_json":"[]"}"#, [#"{"rules_json":[]}"#]).count == 1)
    let brute = #"{"kind":"brute","count":1}"#
    let scan = #"{"kind":"scan","ports":[1]}"#
    #expect(try problems(#"{"kind":"scan","ports":[2]}"#, [brute, scan]).isEmpty)
    #expect(try problems(#"{"kind":"scan","count":2}"#, [brute, scan]).count == 2)
  }

  @Test func theParserKeepsOrderAndWritesBack() throws {
    let text = #"{"b":1.50,"a":[true,null,"x\"\u00e9"],"c":{}}"#
    let value = try OrderedJSON.parse(text)
    #expect(value.keys == ["b", "a", "c"])
    #expect(value.text == #"{"b":1.50,"a":[true,null,"x\"é"],"c":{}}"#)
  }
}

extension WireFixtureTests {
  /// Decodes `{"data": <payload>}` as the named route's success answer, with the route's own
  /// response type (`AnyAPIRoute.payload(from:)`, `RouteClient.payload` underneath).
  static func decode(_ name: String, payload: OrderedJSON) throws {
    guard let route = RouteCatalogue.all.first(where: { $0.name == name }) else {
      throw FixtureProblem("no catalogue route named \(name)")
    }
    let body = Data(OrderedJSON.object([("data", payload)]).text.utf8)
    _ = try route.payload(from: HTTPResponse(status: 200, body: body))
  }
}
