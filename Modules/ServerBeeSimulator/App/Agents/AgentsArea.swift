import ServerBeeRoutes
import ServerBeeTransport

/// Adding a server and its agent's lifecycle (Protocol/Agents.md): the idempotent create
/// (`AgentsArea+Onboarding.swift`), enrollment codes, re-enrolment and revoking the agent
/// (`AgentsArea+Authority.swift`), deleting a server and the latest agent version
/// (`AgentsArea+Lifecycle.swift`), upgrading an agent (`AgentsArea+Upgrade.swift`, run by
/// `SimulatorCore+Upgrades.swift`), and the control API's stand-in for an agent using its code.
/// The lists take each server's authority from its row (`SimulatorCore+Offers.swift`).
///
/// Its migration, 14, adds `servers.agent_claimed` (seeded servers are claimed, a created one
/// is not), the offers (`enrollment_offers`: the code's SHA-256 and prefix, never the code) and
/// the onboarding requests (`onboarding_requests`, per user and request id, with the
/// normalized input a replay is compared with).
struct AgentsArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = [
    route(RouteCatalogue.Agents.createServer, Self.createServer),
    route(RouteCatalogue.Agents.issueEnrollment, Self.issueEnrollment),
    route(RouteCatalogue.Agents.replaceEnrollment, Self.replaceEnrollment),
    route(RouteCatalogue.Agents.revokeEnrollment, Self.revokeEnrollment),
    route(RouteCatalogue.Agents.reEnroll, Self.reEnroll),
    route(RouteCatalogue.Agents.revokeAgentAuthority, Self.revokeAgentAuthority),
    route(RouteCatalogue.Agents.latestAgentVersion, Self.latestAgentVersion),
    route(RouteCatalogue.Agents.deleteServer, Self.deleteServer),
    route(RouteCatalogue.Agents.upgradeAgent, Self.upgradeAgent),
  ]

  static let controlRoutes: [Route] = [
    control("POST", "__simulator/servers/*/enroll", Self.controlEnroll)
  ]

  static let migrations: [Migration] = [
    Migration(
      version: 14,
      [
        "ALTER TABLE servers ADD COLUMN agent_claimed INTEGER NOT NULL DEFAULT 1",
        """
        CREATE TABLE enrollment_offers (
          id TEXT PRIMARY KEY, server_id TEXT NOT NULL, code_hash TEXT NOT NULL,
          code_prefix TEXT NOT NULL, outcome TEXT NOT NULL DEFAULT 'outstanding',
          expires_at INTEGER NOT NULL, created_at INTEGER NOT NULL)
        """,
        "CREATE INDEX enrollment_offers_server ON enrollment_offers(server_id, outcome)",
        """
        CREATE TABLE onboarding_requests (
          user_id TEXT NOT NULL, request_id TEXT NOT NULL, input TEXT NOT NULL,
          server_id TEXT NOT NULL, PRIMARY KEY (user_id, request_id))
        """,
      ])
  ]
}
