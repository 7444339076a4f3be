import ServerBeeTransport

/// Push (wire contract v1 §2.10, wire contract v2 §3–§7): legacy device tokens, encrypted
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
    route("POST", "api/mobile/push/register", .protected, Self.registerLegacyPush),
    route("POST", "api/mobile/push/unregister", .protected, Self.unregisterLegacyPush),
    openRoute("GET", "api/mobile/push/settings", Self.pushSettings),
    openRoute("PUT", "api/mobile/push/settings", Self.updatePushSettings),
    openRoute("POST", "api/mobile/push/encrypted-register", Self.encryptedRegister),
    openRoute("POST", "api/mobile/push/test", Self.sendTestPush),
    openRoute("GET", "api/mobile/push/test/*", Self.testPushStatus),
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
