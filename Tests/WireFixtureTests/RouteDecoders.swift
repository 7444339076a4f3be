import Foundation
import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

/// Each catalogue route's typed success reading: `RouteClient.payload` with the route's own
/// `Response` type, the path every SDK client reads an answer through.
///
/// Swift cannot list a type's static members, so the typed values are named here once;
/// `WireFixtureTests.everyCatalogueRouteIsCovered` fails when `RouteCatalogue.all` has a route
/// this table misses.
enum RouteDecoders {
  typealias Decode = @Sendable (HTTPResponse) throws -> Void

  private static func entry<P, R, S>(_ route: APIRoute<P, R, S>) -> (String, Decode) {
    (route.name, { response in _ = try RouteClient.payload(route, from: response) })
  }

  static let all: [String: Decode] = Dictionary(
    uniqueKeysWithValues: [
      entry(RouteCatalogue.Auth.login), entry(RouteCatalogue.Auth.pair),
      entry(RouteCatalogue.Auth.refresh), entry(RouteCatalogue.Auth.logout),
      entry(RouteCatalogue.Auth.revoke), entry(RouteCatalogue.Auth.recover),
      entry(RouteCatalogue.Auth.devices), entry(RouteCatalogue.Auth.revokeDevice),
      entry(RouteCatalogue.Auth.createPairingCode),
      entry(RouteCatalogue.Account.currentUser), entry(RouteCatalogue.Account.changePassword),
      entry(RouteCatalogue.Account.twoFactorStatus),
      entry(RouteCatalogue.Account.setUpTwoFactor),
      entry(RouteCatalogue.Account.enableTwoFactor),
      entry(RouteCatalogue.Account.disableTwoFactor), entry(RouteCatalogue.Account.apiKeys),
      entry(RouteCatalogue.Account.createAPIKey), entry(RouteCatalogue.Account.deleteAPIKey),
      entry(RouteCatalogue.Administration.users),
      entry(RouteCatalogue.Administration.createUser),
      entry(RouteCatalogue.Administration.updateUser),
      entry(RouteCatalogue.Administration.deleteUser),
      entry(RouteCatalogue.Administration.auditLog),
      entry(RouteCatalogue.Administration.auditLogOptions),
      entry(RouteCatalogue.Administration.rateLimits),
      entry(RouteCatalogue.Administration.resetRateLimits),
      entry(RouteCatalogue.Administration.geoIPStatus),
      entry(RouteCatalogue.Administration.asnStatus),
      entry(RouteCatalogue.Administration.downloadGeoIP),
      entry(RouteCatalogue.Administration.downloadASN),
      entry(RouteCatalogue.Servers.servers), entry(RouteCatalogue.Servers.server),
      entry(RouteCatalogue.Servers.records), entry(RouteCatalogue.Servers.serverGroups),
      entry(RouteCatalogue.Alerts.alertEvents), entry(RouteCatalogue.Alerts.alertEvent),
      entry(RouteCatalogue.Alerts.alertRules), entry(RouteCatalogue.Alerts.alertRule),
      entry(RouteCatalogue.Alerts.alertRuleStates), entry(RouteCatalogue.Alerts.setAlertRule),
      entry(RouteCatalogue.Alerts.notificationChannels),
      entry(RouteCatalogue.Alerts.setNotificationChannel),
      entry(RouteCatalogue.Alerts.testNotificationChannel),
      entry(RouteCatalogue.Tasks.tasks), entry(RouteCatalogue.Tasks.task),
      entry(RouteCatalogue.Tasks.taskResults),
      entry(RouteCatalogue.Security.securityEvents), entry(RouteCatalogue.Security.securityEvent),
      entry(RouteCatalogue.Security.securityStats),
      entry(RouteCatalogue.Security.deleteSecurityEvent),
      entry(RouteCatalogue.Push.legacyRegister), entry(RouteCatalogue.Push.unregister),
      entry(RouteCatalogue.Push.settings), entry(RouteCatalogue.Push.updateSettings),
      entry(RouteCatalogue.Push.encryptedRegister), entry(RouteCatalogue.Push.sendTest),
      entry(RouteCatalogue.Push.testStatus),
    ])

  /// Decodes `{"data": <payload>}` as the named route's success answer.
  static func decode(_ name: String, payload: OrderedJSON) throws {
    guard let decode = all[name] else { throw FixtureProblem("no typed route named \(name)") }
    let body = Data(OrderedJSON.object([("data", payload)]).text.utf8)
    try decode(HTTPResponse(status: 200, body: body))
  }
}

extension AnyAPIRoute {
  /// Whether the app reads the route's success payload (`Ignored` means it does not).
  var hasPayload: Bool { responseType != String(describing: Ignored.self) }
}
