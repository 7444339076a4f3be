import Foundation
import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport
import Testing

/// The catalogue's own rules: every route is declared once, its template fits its path type,
/// and its names are unique.
@Suite struct RouteCatalogueTests {
  @Test func noTwoRoutesShareARequestLine() {
    let keys = RouteCatalogue.all.map(\.key) + RouteCatalogue.sockets.map(\.key)
    #expect(Set(keys).count == keys.count, "\(keys.sorted())")
  }

  @Test func noTwoRoutesShareAName() {
    let names = RouteCatalogue.all.map(\.name) + RouteCatalogue.sockets.map(\.name)
    #expect(Set(names).count == names.count)
  }

  @Test(arguments: RouteCatalogue.all)
  func theTemplateHasOnePlaceholderPerPathValue(_ route: AnyAPIRoute) {
    #expect(route.template.parameterCount == route.pathParameters, "\(route.requestLine)")
    #expect(route.template.text.hasPrefix("/api/"), "\(route.requestLine)")
    #expect(route.successStatus == 200, "\(route.requestLine)")
  }

  @Test(arguments: RouteCatalogue.all)
  func aBodyIsSentOnlyWithAMethodThatCarriesOne(_ route: AnyAPIRoute) {
    if route.requestType != nil {
      #expect([.post, .put, .patch].contains(route.method), "\(route.requestLine)")
    }
  }

  /// Each area's `all` lists every route its file declares: a route left out of `all` would be
  /// sent by the SDK but missing from the simulator's table and the coverage table.
  @Test func everyDeclaredRouteIsInAll() throws {
    let declared = try CatalogueSources.declarations()
    #expect(declared.count == RouteCatalogue.all.count)
    #expect(Set(declared.map(\.name)) == Set(RouteCatalogue.all.map(\.name)))
  }

  /// A route's name is its property's name, so `RouteCatalogue.<Area>.<name>` finds it (the
  /// coverage table reads the SDK's sources for those references).
  @Test func aRoutesNameIsItsPropertysName() throws {
    for declaration in try CatalogueSources.declarations() {
      #expect(declaration.name == declaration.property)
    }
  }

  @Test func aRequestLineFindsItsRoute() throws {
    let found = try #require(
      RouteCatalogue.route(method: "GET", pathSegments: ["api", "alert-rules", "r1", "states"]))
    #expect(found.route.name == "alertRuleStates")
    #expect(found.values == ["r1"])
    #expect(RouteCatalogue.route(method: "PATCH", pathSegments: ["api", "servers"]) == nil)
  }
}
