import Foundation
import ServerBeeModels

// A server's authority as the lists show it (Protocol/Agents.md §1, §10): `agent_claimed` and
// the open offer are read with the row (``ServerRow/openOfferColumn``), and every change of an
// offer touches the row, so the objects kept from rows (`ServerFragments`) are written again.
//
// [inferred], as Protocol/Agents.md §10 records:
// - an offer that lapses on the simulator clock is marked `expired` before anything lists the
//   servers, reads one of its server's offers, or when the clock is advanced, and the change is
//   broadcast as `agent_authority_changed` like any other.

extension SimulatorCore {
  /// Rewrites nothing in the server's row but reports it changed (SQLite's update hook), so
  /// its kept list entry and `full_sync` object are written again.
  func touchServer(_ serverID: String) throws {
    try db.execute(
      "UPDATE servers SET agent_claimed = agent_claimed WHERE id = ?", [.text(serverID)])
  }

  /// The server's authority as the lists write it; `nil` for an unknown server.
  func authority(of serverID: String) throws -> AgentAuthority? {
    try db.read(
      "SELECT agent_claimed, \(ServerRow.openOfferColumn) FROM servers WHERE id = ?",
      [.text(serverID)]
    ) {
      AgentAuthority(
        status: $0.bool(0) ? .claimed : .unclaimed,
        outstandingOffer: ServerRow.openOffer($0.text(1)))
    }.first
  }

  /// Touches the server's row and broadcasts its authority as it now is.
  func announceAuthority(_ serverID: String) throws {
    try touchServer(serverID)
    guard let authority = try authority(of: serverID) else { return }
    hub.broadcast(
      try WireJSON.encode(
        LiveStreamMessage.agentAuthorityChanged(
          AgentAuthorityChange(serverID: serverID, agentAuthority: authority))))
  }

  /// Notes an open offer lapsing at `expiresAt`, for ``expireLapsedOffers()``.
  func offerOpened(expiresAt: Int64) {
    nextOfferLapse.withLock { next in
      if let known = next { next = min(known, expiresAt) }
    }
  }

  /// Marks every open offer whose time has come `expired`, touching and announcing each
  /// server. One comparison when none is due (the earliest lapse is kept in memory).
  func expireLapsedOffers() throws {
    let now = self.now
    if let next = nextOfferLapse.withLock({ $0 }), next > now { return }
    try db.serial {
      let lapsed = try db.query(
        """
        UPDATE enrollment_offers SET outcome = 'expired'
        WHERE outcome = 'outstanding' AND expires_at <= ? RETURNING server_id
        """, [.int(now)]
      ).compactMap { $0["server_id"].text }
      let next = try db.scalar(
        "SELECT MIN(expires_at) FROM enrollment_offers WHERE outcome = 'outstanding'"
      ).int
      nextOfferLapse.withLock { $0 = next ?? Int64.max }
      for serverID in Set(lapsed) { try announceAuthority(serverID) }
    }
  }

  /// What moving the clock drives (the control API, or the simulator's own ticker on a clock
  /// that follows the wall clock): lapsed offers expire, running upgrades move on, scheduled
  /// tasks that came due run.
  func clockMoved() {
    try? expireLapsedOffers()
    try? advanceUpgrades()
    try? fireDueTasks()
  }
}
