import ServerBeeRoutes
import ServerBeeTransport

/// Mobile authentication (Protocol/Auth.md): login, refresh, pair
/// codes, logout, devices, revoke, recover, the current user and the password, with the control
/// API's web sessions, pair codes and session deletion.
///
/// Its tables (`mobile_sessions`, `session_proofs`, `access_sessions`, `recovery_grants`) are in
/// ``Schema/baseMigrations``. Pair codes live in memory (``SimulatorCore/pairCodes``), as upstream
/// keeps them. Credential checks other areas share (``SimulatorCore/authenticate(_:)``,
/// ``SimulatorCore/mobileBearer(_:)``, session deletion) are in `Shared/`.
struct AuthArea: SimulatorArea {
  let core: SimulatorCore

  static let mustChangeMobile =
    "MUST_CHANGE_PASSWORD: complete onboarding via the web UI before using mobile"
  static let proofPrefix = "sb-revoke-v1."

  static let routes: [Route] = [
    openRoute(RouteCatalogue.Auth.login, Self.login),
    openRoute(RouteCatalogue.Auth.refresh, Self.refresh),
    openRoute(RouteCatalogue.Auth.pair, Self.redeemPairCode),
    openRoute(RouteCatalogue.Auth.revoke, Self.revoke),
    openRoute(RouteCatalogue.Auth.recover, Self.recover),
    route(RouteCatalogue.Auth.createPairingCode, Self.generatePairCode),
    route(RouteCatalogue.Auth.logout, Self.logout),
    route(RouteCatalogue.Auth.devices, Self.listDevices),
    route(RouteCatalogue.Auth.revokeDevice, Self.revokeDevice),
    route(RouteCatalogue.Account.currentUser, Self.me),
    route(RouteCatalogue.Account.changePassword, Self.changePassword),
  ]

  static let controlRoutes: [Route] = [
    control("POST", "__simulator/users/*/web-session", Self.controlWebSession),
    control("POST", "__simulator/users/*/pair-code", Self.controlPairCode),
    control("DELETE", "__simulator/mobile-sessions/*", Self.controlDeleteSession),
  ]

  static let migrations: [Migration] = []
}
