import ServerBeeRoutes
import ServerBeeTransport

/// Push (Protocol/Push.md §1, §2–§5, Protocol/Relay.md): legacy device tokens, encrypted
/// registration and its settings, test pushes, and the control API's relay URL, outbox and
/// registrations.
///
/// Its tables (`push_legacy_tokens`, `push_registrations`, `push_migrations`, `push_outbox`) are
/// in ``Schema/baseMigrations``. The outbox itself (admission and delivery) is shared: alerts,
/// security events and task runs queue their pushes through
/// ``SimulatorCore/admitEverywhere(_:category:adminOnly:userID:)``, and the outbox workers
/// deliver them (`SimulatorCore+Outbox.swift`, `SimulatorCore+OutboxDelivery.swift`).
struct PushArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.Push.legacyRegister, Self.registerLegacyPush),
    route(RouteCatalogue.Push.unregister, Self.unregisterLegacyPush),
    openRoute(RouteCatalogue.Push.settings, Self.pushSettings),
    openRoute(RouteCatalogue.Push.updateSettings, Self.updatePushSettings),
    openRoute(RouteCatalogue.Push.encryptedRegister, Self.encryptedRegister),
    openRoute(RouteCatalogue.Push.sendTest, Self.sendTestPush),
    openRoute(RouteCatalogue.Push.testStatus, Self.testPushStatus),
  ]

  // `POST __simulator/push/outbox/run` waits for the relay, so it is answered outside the
  // database lock and outside this table (`SimulatorCore+OutboxRun.swift`).
  static let controlRoutes: [Route] = [
    control("PUT", "__simulator/push/relay", Self.controlSetRelay),
    control("GET", "__simulator/push/outbox", Self.controlOutbox),
    control("GET", "__simulator/push/registrations", Self.controlRegistrations),
  ]

  static let migrations: [Migration] = []
}
