import Foundation
import ServerBeeModels
import ServerBeeTransport

// GeoIP and ASN databases (Protocol/Administration.md §4). The simulator has no network and no
// lookup: a "download" installs a simulated database, remembered across restarts in
// `simulator_state` (its time), and the status reports it as `downloaded`.

extension AccountArea {
  /// The two databases, by the path segment of their routes.
  enum GeoDatabase: String {
    case geoip, asn

    var installedMessage: String {
      self == .geoip
        ? "GeoIP database installed successfully" : "ASN database installed successfully"
    }
    /// The size the simulated file reports (the order of a real MaxMind-format file).
    var simulatedFileSize: Int64 { self == .geoip ? 9_437_184 : 8_388_608 }
    var stateKey: String { "\(rawValue)_installed_at" }
  }

  /// `GET /api/{geoip|asn}/status` (member): `{installed}`, plus `source`, `file_size` and
  /// `updated_at` once installed.
  func geoDatabaseStatus(_ database: GeoDatabase) throws -> HTTPResponse {
    let installed = try db.scalar(
      "SELECT value FROM simulator_state WHERE key = ?", [.text(database.stateKey)]
    ).real
    guard let installed else { return Reply.data(GeoDatabaseStatus(installed: false)) }
    let updated: RFC3339Timestamp = timestamp(Int64(installed), .utcOffset)
    return Reply.data(
      GeoDatabaseStatus(
        installed: true, source: "downloaded", fileSize: database.simulatedFileSize,
        updatedAt: updated))
  }

  /// `POST /api/{geoip|asn}/download` (admin): always HTTP 200 `{success, message}`.
  func downloadGeoDatabase(_ database: GeoDatabase, _ context: RequestContext, _ caller: Caller?)
    throws -> HTTPResponse
  {
    guard let caller else { throw APIError.bare(401) }
    try db.execute(
      "INSERT INTO simulator_state (key, value) VALUES (?, ?) "
        + "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      [.text(database.stateKey), .real(Double(now))])
    try core.audit(caller, "\(database.rawValue).download", context)
    return Reply.data(GeoDatabaseDownloadResult(success: true, message: database.installedMessage))
  }
}
