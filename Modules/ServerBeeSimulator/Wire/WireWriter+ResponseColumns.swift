import Foundation
import ServerBeeModels

// `GET /api/servers` written straight from the rows as SQLite steps through them:
// a list written from `ServerRow`s made about fifteen `String`s, two arrays and a
// `ServerResponse` per server and formatted its times through `String`s, 51 k instructions a
// server on a miss (the budget is 10 k).

extension WireWriter {
  /// The columns ``response(_:)`` reads, in its order: what ``ServerRow/response`` uses of a
  /// row.
  static let responseColumns = """
    id, name, cpu_name, cpu_cores, cpu_arch, os, kernel_version, mem_total, swap_total, \
    disk_total, ipv4, ipv6, region, country_code, virtualization, agent_version, group_id, \
    weight, hidden, remark, public_remark, capabilities, protocol_version, features_json, \
    online, created_at, updated_at, geo_manual, price, billing_cycle, currency, expired_at, \
    traffic_limit, traffic_limit_type, billing_start_day, agent_claimed, \
    \(ServerRow.openOfferColumn)
    """

  /// Writes one `ServerResponse` from a row selected with ``responseColumns``: the bytes
  /// ``write(_:)-(ServerResponse)`` writes for `ServerRow(row).response`
  /// (`WireWriterResponseColumnsTests`).
  /// - Throws: What ``agentAuthority(_:)`` throws (nothing, in practice).
  mutating func response(_ row: Database.Columns) throws {
    raw("{\"id\":")
    text(row, 0, orEmpty: true)
    raw(",\"name\":")
    text(row, 1, orEmpty: true)
    raw(",\"cpu_name\":")
    textOrNull(row, 2)
    raw(",\"cpu_cores\":")
    int(row.int(3))
    raw(",\"cpu_arch\":")
    textOrNull(row, 4)
    raw(",\"os\":")
    textOrNull(row, 5)
    raw(",\"kernel_version\":")
    textOrNull(row, 6)
    raw(",\"mem_total\":")
    int(row.int(7))
    raw(",\"swap_total\":")
    int(row.int(8))
    raw(",\"disk_total\":")
    int(row.int(9))
    raw(",\"ipv4\":")
    textOrNull(row, 10)
    raw(",\"ipv6\":")
    textOrNull(row, 11)
    raw(",\"region\":")
    textOrNull(row, 12)
    raw(",\"country_code\":")
    textOrNull(row, 13)
    raw(",\"geo_manual\":")
    bool(row.bool(27))
    raw(",\"virtualization\":")
    textOrNull(row, 14)
    raw(",\"agent_version\":")
    textOrNull(row, 15)
    raw(",\"group_id\":")
    textOrNull(row, 16)
    raw(",\"weight\":")
    int(row.int(17) ?? 0)
    raw(",\"hidden\":")
    bool(row.bool(18))
    raw(",\"remark\":")
    textOrNull(row, 19)
    raw(",\"public_remark\":")
    textOrNull(row, 20)
    raw(",\"price\":")
    float(row.real(28))
    raw(",\"billing_cycle\":")
    textOrNull(row, 29)
    raw(",\"currency\":")
    textOrNull(row, 30)
    raw(",\"expired_at\":")
    if let expiredAt = row.int(31) { timestamp(nanos: expiredAt, .zulu) } else { raw("null") }
    raw(",\"traffic_limit\":")
    int(row.int(32))
    raw(",\"traffic_limit_type\":")
    textOrNull(row, 33)
    raw(",\"billing_start_day\":")
    int(row.int(34))
    raw(",\"capabilities\":")
    let capabilities = Int64(UInt32(truncatingIfNeeded: row.int(21) ?? 1852))
    int(capabilities)
    if row.bool(24) {
      raw(",\"agent_local_capabilities\":")
      int(capabilities)
      raw(",\"effective_capabilities\":")
      int(capabilities)
    } else {
      raw(",\"agent_local_capabilities\":null,\"effective_capabilities\":null")
    }
    raw(",\"temporary\":[],\"protocol_version\":")
    int(row.int(22) ?? 3)
    raw(",\"features\":")
    stringArray(row, 23, sorted: false)
    raw(",\"agent_authority\":")
    let offer = try agentAuthority(row, claimed: 35, offer: 36)
    raw(",\"has_token\":")
    bool(row.bool(35))
    raw(",\"outstanding_enrollment\":")
    try encoded(offer)
    raw(",\"created_at\":")
    timestamp(nanos: row.int(25) ?? 0, .zulu)
    raw(",\"updated_at\":")
    timestamp(nanos: row.int(26) ?? 0, .zulu)
    raw("}")
  }

  /// A `TEXT` column as a JSON string, `null` when it is not text (an optional of
  /// ``ServerRow``).
  private mutating func textOrNull(_ row: Database.Columns, _ column: Int32) {
    if !text(row, column) { raw("null") }
  }

  /// A whole `GET /api/servers` body, `{"data":[ServerResponse…]}`, written as SQLite steps
  /// through the rows in list order, with no ``ServerRow``s: the bytes of
  /// ``serverList(_:)`` for the rows read by ``SimulatorCore/allServers()``.
  /// - Parameter db: The database, its lock held by the caller.
  /// - Returns: The body.
  /// - Throws: ``ServerBeeSimulatorError`` (`storageFailed`) from SQLite.
  static func serverList(rowsOf db: Database) throws -> Data {
    var writer = WireWriter(capacity: 1 << 20)
    writer.raw("{\"data\":[")
    var first = true
    try db.forEachRow("SELECT \(responseColumns) FROM servers \(listOrder)") { row in
      if !first { writer.raw(",") }
      first = false
      try writer.response(row)
    }
    writer.raw("]}")
    return writer.takeData()
  }
}
