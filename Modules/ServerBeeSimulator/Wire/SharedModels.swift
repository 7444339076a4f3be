import Foundation
import ServerBeeModels

// The simulator's rows written as the shared ServerBeeModels wire types: one definition of every
// JSON shape (key order, nulls, omitted keys) for the SDK and the simulator alike.

/// RFC 3339 from stored nanoseconds.
func timestamp(_ nanos: Int64, _ style: RFC3339Timestamp.Style) -> RFC3339Timestamp {
  var seconds = nanos / 1_000_000_000
  var fraction = nanos % 1_000_000_000
  if fraction < 0 {
    seconds -= 1
    fraction += 1_000_000_000
  }
  return RFC3339Timestamp(secondsSince1970: seconds, nanoseconds: Int32(fraction), style: style)
}

func timestamp(_ nanos: Int64?, _ style: RFC3339Timestamp.Style) -> RFC3339Timestamp? {
  nanos.map { timestamp($0, style) }
}

extension AgentAuthority {
  /// A seeded server's authority: claimed, with no offer (Protocol/LiveStream.md §4).
  static let simulated = AgentAuthority(status: .claimed)
  /// An added server's authority once its offer is gone: unclaimed, with no offer.
  static let unclaimed = AgentAuthority(status: .unclaimed)
}

extension ServerRow {
  /// The server's authority (Protocol/Agents.md §1): claimed or not, and its open offer.
  var authority: AgentAuthority {
    AgentAuthority(status: agentClaimed ? .claimed : .unclaimed, outstandingOffer: openOffer)
  }
}

extension ServerRow {
  /// `ServerResponse` (Protocol/Servers.md §1), configuration only.
  var response: ServerResponse {
    ServerResponse(
      id: id, name: name, cpuName: cpuName, cpuCores: cpuCores.map(Int.init), cpuArch: cpuArch,
      os: os, kernelVersion: kernelVersion, memTotal: memTotal, swapTotal: swapTotal,
      diskTotal: diskTotal, ipv4: ipv4, ipv6: ipv6, region: region, countryCode: countryCode,
      geoManual: geoManual, virtualization: virtualization, agentVersion: agentVersion,
      groupID: groupID, weight: Int(weight), hidden: hidden, remark: remark,
      publicRemark: publicRemark, price: price, billingCycle: billingCycle, currency: currency,
      expiredAt: timestamp(expiredAt, .zulu), trafficLimit: trafficLimit,
      trafficLimitType: trafficLimitType, billingStartDay: billingStartDay.map(Int.init),
      capabilities: Capabilities(rawValue: UInt32(truncatingIfNeeded: capabilities)),
      agentLocalCapabilities: online
        ? Capabilities(rawValue: UInt32(truncatingIfNeeded: capabilities)) : nil,
      effectiveCapabilities: online
        ? Capabilities(rawValue: UInt32(truncatingIfNeeded: capabilities)) : nil,
      protocolVersion: Int(protocolVersion), features: features, agentAuthority: authority,
      hasToken: agentClaimed, outstandingEnrollment: openOffer,
      createdAt: timestamp(createdAt, .zulu),
      updatedAt: timestamp(updatedAt, .zulu))
  }

  /// `ServerStatus` (Protocol/LiveStream.md §5), an element of `full_sync.servers`: every field
  /// the model holds, from the ``MetricField`` table.
  func status(nowSeconds: Int64) -> ServerStatus {
    let live = online ? (self.live ?? LiveNumbers()) : LiveNumbers()
    var status = ServerStatus.empty
    ServerStatus.layout.write(into: &status) { fields in
      for field in ServerStatus.layout.fields {
        store(field, into: fields, live: live, nowSeconds: nowSeconds)
      }
    }
    return status
  }

  /// Stores `field`'s value in a `ServerStatus`: where the simulator takes each field from,
  /// a property of the row, a constant, or (`default`) its ``LiveNumbers``. What
  /// ``WireWriter/status(_:nowSeconds:)`` takes from the row's columns.
  private func store(
    _ field: MetricField, into fields: MetricFieldWriter, live: LiveNumbers, nowSeconds: Int64
  ) {
    switch field {
    case .id: fields.setIdentity(id, field)
    case .name: fields.setIdentity(name, field)
    case .online: fields.setBool(online, field)
    case .lastActive: fields.setInt64(online ? nowSeconds : updatedAt / 1_000_000_000, field)
    case .memTotal: fields.setInt64(memTotal ?? 0, field)
    case .swapTotal: fields.setInt64(swapTotal ?? 0, field)
    case .diskTotal: fields.setInt64(diskTotal ?? 0, field)
    case .cpuName: fields.setString(cpuName, field)
    case .os: fields.setString(os, field)
    case .region: fields.setString(region, field)
    case .countryCode: fields.setString(countryCode, field)
    case .groupID: fields.setString(groupID, field)
    case .features: fields.setStrings(features, field)
    case .tags: fields.setStrings(tags.sorted(), field)
    case .cpuCores: fields.setInt(cpuCores.map(Int.init), field)
    case .agentAuthority: fields.setAuthority(authority, field)
    case .hasToken: fields.setBool(agentClaimed, field)
    case .outstandingEnrollment: fields.setOffer(openOffer, field)
    default: live.store(field, into: fields)
    }
  }
}

extension LiveNumbers {
  /// `LiveMetrics` (Protocol/LiveStream.md §6), the one element of an `update` frame: identity,
  /// presence and the live numbers of the ``MetricField`` table, no totals or static fields.
  func metrics(id: String, name: String, nowSeconds: Int64) -> LiveMetrics {
    var metrics = LiveMetrics(id: id, name: name)
    LiveMetrics.layout.write(into: &metrics) { fields in
      for field in LiveMetrics.layout.fields {
        switch field {
        case .online: fields.setBool(true, field)
        case .lastActive: fields.setInt64(nowSeconds, field)
        default: store(field, into: fields)
        }
      }
    }
    return metrics
  }

  /// A metric record (Protocol/Servers.md §2) at `time` (nanoseconds).
  func record(id: Int64, serverID: String, time: Int64, diskIOJSON: String?) -> ServerRecord {
    ServerRecord(
      rowID: id, serverID: serverID, time: timestamp(time, .zulu), cpu: cpu, memUsed: memUsed,
      swapUsed: swapUsed, diskUsed: diskUsed, netInSpeed: netInSpeed, netOutSpeed: netOutSpeed,
      netInTransfer: netInTransfer, netOutTransfer: netOutTransfer, load1: load1, load5: load5,
      load15: load15, tcpConn: Int(tcpConn), udpConn: Int(udpConn),
      processCount: Int(processCount), diskIOJSON: diskIOJSON)
  }
}

extension LiveStreamMessage {
  /// `{"type":"update","servers":[one LiveMetrics]}`.
  static func update(_ metrics: LiveMetrics) -> Self { .update(MetricsUpdate(servers: [metrics])) }

  /// `server_online` / `server_offline`.
  static func presence(online: Bool, serverID: String) -> Self {
    online
      ? .serverOnline(ServerPresence(serverID: serverID))
      : .serverOffline(ServerPresence(serverID: serverID))
  }

  /// The WebSocket form (Protocol/Security.md §4): unix-second times, no `id`/`created_at` in
  /// `event`.
  static func securityEvent(_ row: SecurityEventRow) -> Self {
    .securityEvent(
      LiveSecurityEvent(
        serverID: row.serverID, eventID: row.id,
        event: SecurityEventPayload(
          eventType: SecurityEventType(rawValue: row.eventType),
          severity: SecuritySeverity(rawValue: row.severity), sourceIP: row.sourceIP,
          sourcePort: row.sourcePort.map(Int.init), username: row.username,
          startedAt: row.startedAt, endedAt: row.endedAt, firstSeen: row.firstSeen,
          detectorSource: SecurityDetectorSource(rawValue: row.detectorSource),
          evidence: row.evidence)))
  }
}

extension AlertStateRow {
  private var status: AlertStatus { resolved ? .resolved : .firing }

  /// An element of `GET /api/alert-events` (v2 form: `alert_key` first).
  var event: AlertEvent {
    AlertEvent(
      alertKey: alertKey, ruleID: ruleID, ruleName: ruleName ?? "Unknown", serverID: serverID,
      serverName: serverName ?? "Unknown", status: status,
      eventAt: timestamp(
        resolved ? (resolvedAt ?? firstTriggeredAt) : firstTriggeredAt, .utcOffset),
      resolvedAt: timestamp(resolvedAt, .utcOffset), count: Int(count))
  }

  /// `GET /api/alert-events/{key}` (Protocol/Alerts.md §3) under the key the client asked with.
  func detail(key: String) -> AlertEventDetail {
    AlertEventDetail(
      alertKey: key, ruleID: ruleID, ruleName: ruleName ?? "Unknown", serverID: serverID,
      serverName: serverName ?? "Unknown", status: status,
      message: AlertEventDetail.message(status: status, triggerCount: Int(count)),
      triggerCount: Int(count), firstTriggeredAt: timestamp(firstTriggeredAt, .utcOffset),
      resolvedAt: timestamp(resolvedAt, .utcOffset), ruleEnabled: ruleEnabled,
      ruleTriggerMode: AlertTriggerMode(rawValue: triggerMode))
  }
}

extension SecurityEventRow {
  /// The REST form (Protocol/Security.md §2): `started_at`/`ended_at` as `+00:00` text.
  var event: SecurityEvent {
    SecurityEvent(
      id: id, serverID: serverID, eventType: SecurityEventType(rawValue: eventType),
      severity: SecuritySeverity(rawValue: severity), sourceIP: sourceIP,
      sourcePort: sourcePort.map(Int.init), username: username,
      startedAt: timestamp(startedAt * 1_000_000_000, .utcOffset),
      endedAt: timestamp(endedAt * 1_000_000_000, .utcOffset), firstSeen: firstSeen,
      detectorSource: SecurityDetectorSource(rawValue: detectorSource), evidence: evidence,
      createdAt: timestamp(createdAt, .utcOffset))
  }
}
