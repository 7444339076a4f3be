import Foundation
import ServerBeeModels

/// The API's maintenance windows silence alerts (Protocol/Incidents.md §3.5): the alert and
/// security paths ask ``SimulatorCore/isInMaintenance(serverID:at:)``, which asks this too.
extension SimulatorCore {
  /// Whether an active window of `maintenances` covers `serverID` at Unix second `seconds`:
  /// `start_at ≤ t ≤ end_at` (both ends included), and a NULL, empty or unreadable list covers
  /// every server [inferred for the unreadable list]. The second is compared with the stored
  /// nanoseconds as its first instant.
  func isInScheduledMaintenance(serverID: String, at seconds: Int64) throws -> Bool {
    let instant = seconds * Self.second
    let rows = try db.query(
      "SELECT server_ids_json FROM maintenances WHERE active = 1 AND start_at <= ? AND end_at >= ?",
      [.int(instant), .int(instant)])
    return rows.contains { row in
      guard let text = row["server_ids_json"].text,
        let ids = try? WireJSON.decode([String].self, from: Data(text.utf8)), !ids.isEmpty
      else { return true }
      return ids.contains(serverID)
    }
  }
}
