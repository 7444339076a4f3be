import Foundation
import ServerBeeModels

extension ServerRow {
  /// Reads a `SELECT *` row by column name, the JSON columns with `JSONDecoder`: how every row
  /// was read before ``init(_:)-(Database.Columns)``, kept as its reference in tests. The open
  /// offer is read from an `open_offer` column (``openOfferColumn`` named so) when the
  /// `SELECT` adds one.
  init(_ row: Row) {
    func strings(_ column: String) -> [String] {
      (try? WireJSON.decode([String].self, from: Data((row[column].text ?? "[]").utf8))) ?? []
    }
    id = row["id"].text ?? ""
    name = row["name"].text ?? ""
    cpuName = row["cpu_name"].text
    cpuCores = row["cpu_cores"].int
    cpuArch = row["cpu_arch"].text
    os = row["os"].text
    kernelVersion = row["kernel_version"].text
    memTotal = row["mem_total"].int
    swapTotal = row["swap_total"].int
    diskTotal = row["disk_total"].int
    ipv4 = row["ipv4"].text
    ipv6 = row["ipv6"].text
    region = row["region"].text
    countryCode = row["country_code"].text
    virtualization = row["virtualization"].text
    agentVersion = row["agent_version"].text
    groupID = row["group_id"].text
    weight = row["weight"].int ?? 0
    hidden = row["hidden"].bool
    remark = row["remark"].text
    publicRemark = row["public_remark"].text
    capabilities = row["capabilities"].int ?? 1852
    protocolVersion = row["protocol_version"].int ?? 3
    features = strings("features_json")
    tags = strings("tags_json")
    online = row["online"].bool
    live = row["live_json"].text.flatMap {
      try? JSONDecoder().decode(LiveNumbers.self, from: Data($0.utf8))
    }
    createdAt = row["created_at"].int ?? 0
    updatedAt = row["updated_at"].int ?? 0
    geoManual = row["geo_manual"].bool
    price = row["price"].real
    billingCycle = row["billing_cycle"].text
    currency = row["currency"].text
    expiredAt = row["expired_at"].int
    trafficLimit = row["traffic_limit"].int
    trafficLimitType = row["traffic_limit_type"].text
    billingStartDay = row["billing_start_day"].int
    agentClaimed = row["agent_claimed"].int.map { $0 != 0 } ?? true
    openOffer = Self.openOffer(row["open_offer"].text)
  }
}
