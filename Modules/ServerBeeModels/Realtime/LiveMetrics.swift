/// One server's metrics in an `update` frame (wire contract v1 §4.6): a partial ``ServerStatus``.
///
/// Only ``id`` and ``name`` are required (an entry without them is dropped from its frame, v1
/// §4.7). Every other property is `nil` when its key is **absent**, never `0`, so a merge can
/// tell "not sent" from "zero". Aliases and the lenient ``lastActive`` follow ``ServerStatus``. Real servers send exactly 21 keys (`id`, `name`,
/// `online`, `last_active`, `uptime`, `cpu`, `mem_used`, `swap_used`, `disk_used`, the four
/// network counters, the three load averages, `tcp_conn`, `udp_conn`, `process_count` and the two
/// disk rates) and no `*_total`; the totals are accepted in case a server adds them.
///
/// A float that is present but `null` (non-finite on the server) decodes as `.nan`. Encoding
/// writes only the non-`nil` properties, in wire order, so a decoded frame re-encodes to the same
/// bytes.
///
/// ```swift
/// if case .update(let update) = message, let metrics = update.servers.first {
///   fleet[metrics.id]?.merge(metrics) // keeps the cached name
/// }
/// ```
public struct LiveMetrics: Codable, Hashable, Sendable, Identifiable {
  /// Server id; the merge key.
  public var id: String
  /// The name when the agent connected. Old decoders need it; it must not replace a cached name.
  public var name: String
  /// Always `true` in real frames.
  public var online: Bool?
  /// Unix seconds ("now").
  public var lastActive: Int64?
  /// Host uptime, seconds.
  public var uptime: Int64?
  /// CPU percent, 0–100.
  public var cpu: Double?
  /// Memory in use, bytes.
  public var memUsed: Int64?
  /// Total memory, bytes (real servers leave it out).
  public var memTotal: Int64?
  /// Swap in use, bytes.
  public var swapUsed: Int64?
  /// Total swap, bytes (real servers leave it out).
  public var swapTotal: Int64?
  /// Disk in use, bytes.
  public var diskUsed: Int64?
  /// Total disk, bytes (real servers leave it out).
  public var diskTotal: Int64?
  /// Inbound speed, bytes per second.
  public var netInSpeed: Int64?
  /// Outbound speed, bytes per second.
  public var netOutSpeed: Int64?
  /// Cumulative inbound bytes.
  public var netInTransfer: Int64?
  /// Cumulative outbound bytes.
  public var netOutTransfer: Int64?
  /// 1-minute load average.
  public var load1: Double?
  /// 5-minute load average.
  public var load5: Double?
  /// 15-minute load average.
  public var load15: Double?
  /// Open TCP connections.
  public var tcpConn: Int?
  /// Open UDP sockets.
  public var udpConn: Int?
  /// Running processes.
  public var processCount: Int?
  /// Disk reads, bytes per second.
  public var diskReadBytesPerSec: Int64?
  /// Disk writes, bytes per second.
  public var diskWriteBytesPerSec: Int64?

  /// Creates a partial frame entry; leave out what was not measured.
  /// - Parameters:
  ///   - id: Server id.
  ///   - name: Name at connect time.
  ///   - online: Online flag.
  ///   - lastActive: Unix seconds.
  ///   - uptime: Seconds.
  ///   - cpu: Percent.
  ///   - memUsed: Bytes.
  ///   - memTotal: Bytes.
  ///   - swapUsed: Bytes.
  ///   - swapTotal: Bytes.
  ///   - diskUsed: Bytes.
  ///   - diskTotal: Bytes.
  ///   - netInSpeed: Bytes per second.
  ///   - netOutSpeed: Bytes per second.
  ///   - netInTransfer: Cumulative bytes.
  ///   - netOutTransfer: Cumulative bytes.
  ///   - load1: Load average.
  ///   - load5: Load average.
  ///   - load15: Load average.
  ///   - tcpConn: Count.
  ///   - udpConn: Count.
  ///   - processCount: Count.
  ///   - diskReadBytesPerSec: Bytes per second.
  ///   - diskWriteBytesPerSec: Bytes per second.
  public init(
    id: String, name: String, online: Bool? = nil, lastActive: Int64? = nil,
    uptime: Int64? = nil, cpu: Double? = nil, memUsed: Int64? = nil, memTotal: Int64? = nil,
    swapUsed: Int64? = nil, swapTotal: Int64? = nil, diskUsed: Int64? = nil,
    diskTotal: Int64? = nil, netInSpeed: Int64? = nil, netOutSpeed: Int64? = nil,
    netInTransfer: Int64? = nil, netOutTransfer: Int64? = nil, load1: Double? = nil,
    load5: Double? = nil, load15: Double? = nil, tcpConn: Int? = nil, udpConn: Int? = nil,
    processCount: Int? = nil, diskReadBytesPerSec: Int64? = nil, diskWriteBytesPerSec: Int64? = nil
  ) {
    self.id = id
    self.name = name
    self.online = online
    self.lastActive = lastActive
    self.uptime = uptime
    self.cpu = cpu
    self.memUsed = memUsed
    self.memTotal = memTotal
    self.swapUsed = swapUsed
    self.swapTotal = swapTotal
    self.diskUsed = diskUsed
    self.diskTotal = diskTotal
    self.netInSpeed = netInSpeed
    self.netOutSpeed = netOutSpeed
    self.netInTransfer = netInTransfer
    self.netOutTransfer = netOutTransfer
    self.load1 = load1
    self.load5 = load5
    self.load15 = load15
    self.tcpConn = tcpConn
    self.udpConn = udpConn
    self.processCount = processCount
    self.diskReadBytesPerSec = diskReadBytesPerSec
    self.diskWriteBytesPerSec = diskWriteBytesPerSec
  }

  /// Decodes an entry with the shared rules (``ServerStatus``): absent keys stay `nil`, a `null`
  /// float becomes `.nan`, aliases are read.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field when `id` or `name` is missing or a value has
  ///   the wrong type.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    id = try c.decode(String.self, forKey: WireKey(.id))
    name = try c.decode(String.self, forKey: WireKey(.name))
    online = try c.decodeField(Bool.self, .online)
    lastActive = c.decodeTimeField(.lastActive)
    uptime = try c.decodeField(Int64.self, .uptime)
    cpu = try c.decodeMetricField(.cpu)
    memUsed = try c.decodeField(Int64.self, .memUsed)
    memTotal = try c.decodeField(Int64.self, .memTotal)
    swapUsed = try c.decodeField(Int64.self, .swapUsed)
    swapTotal = try c.decodeField(Int64.self, .swapTotal)
    diskUsed = try c.decodeField(Int64.self, .diskUsed)
    diskTotal = try c.decodeField(Int64.self, .diskTotal)
    netInSpeed = try c.decodeField(Int64.self, .netInSpeed)
    netOutSpeed = try c.decodeField(Int64.self, .netOutSpeed)
    netInTransfer = try c.decodeField(Int64.self, .netInTransfer)
    netOutTransfer = try c.decodeField(Int64.self, .netOutTransfer)
    load1 = try c.decodeMetricField(.load1)
    load5 = try c.decodeMetricField(.load5)
    load15 = try c.decodeMetricField(.load15)
    tcpConn = try c.decodeField(Int.self, .tcpConn)
    udpConn = try c.decodeField(Int.self, .udpConn)
    processCount = try c.decodeField(Int.self, .processCount)
    diskReadBytesPerSec = try c.decodeField(Int64.self, .diskReadBytesPerSec)
    diskWriteBytesPerSec = try c.decodeField(Int64.self, .diskWriteBytesPerSec)
  }

  /// Encodes the non-`nil` properties in wire order (absent stays absent).
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.encode(id, forKey: WireKey(.id))
    try c.encode(name, forKey: WireKey(.name))
    try c.encodeUnlessNil(online, forKey: WireKey(.online))
    try c.encodeUnlessNil(lastActive, forKey: WireKey(.lastActive))
    try c.encodeUnlessNil(uptime, forKey: WireKey(.uptime))
    try c.encodeUnlessNil(cpu, forKey: WireKey(.cpu))
    try c.encodeUnlessNil(memUsed, forKey: WireKey(.memUsed))
    try c.encodeUnlessNil(memTotal, forKey: WireKey(.memTotal))
    try c.encodeUnlessNil(swapUsed, forKey: WireKey(.swapUsed))
    try c.encodeUnlessNil(swapTotal, forKey: WireKey(.swapTotal))
    try c.encodeUnlessNil(diskUsed, forKey: WireKey(.diskUsed))
    try c.encodeUnlessNil(diskTotal, forKey: WireKey(.diskTotal))
    try c.encodeUnlessNil(netInSpeed, forKey: WireKey(.netInSpeed))
    try c.encodeUnlessNil(netOutSpeed, forKey: WireKey(.netOutSpeed))
    try c.encodeUnlessNil(netInTransfer, forKey: WireKey(.netInTransfer))
    try c.encodeUnlessNil(netOutTransfer, forKey: WireKey(.netOutTransfer))
    try c.encodeUnlessNil(load1, forKey: WireKey(.load1))
    try c.encodeUnlessNil(load5, forKey: WireKey(.load5))
    try c.encodeUnlessNil(load15, forKey: WireKey(.load15))
    try c.encodeUnlessNil(tcpConn, forKey: WireKey(.tcpConn))
    try c.encodeUnlessNil(udpConn, forKey: WireKey(.udpConn))
    try c.encodeUnlessNil(processCount, forKey: WireKey(.processCount))
    try c.encodeUnlessNil(diskReadBytesPerSec, forKey: WireKey(.diskReadBytesPerSec))
    try c.encodeUnlessNil(diskWriteBytesPerSec, forKey: WireKey(.diskWriteBytesPerSec))
  }
}

extension ServerStatus {
  /// Applies an `update` entry: every metric it carries replaces the cached one, absent ones are
  /// kept, ``name`` is never replaced (wire contract v1 §4.6), and a ``memTotal`` or ``diskTotal`` of 0
  /// (unknown capacity) never replaces a known total (wire contract v1 §4.7).
  ///
  /// This is the reference merge; `RealtimeStream` may use a faster one with the same result.
  /// - Parameter metrics: The entry; its ``LiveMetrics/id`` should equal ``id``.
  public mutating func merge(_ metrics: LiveMetrics) {
    if let v = metrics.online { online = v }
    if let v = metrics.lastActive { lastActive = v }
    if let v = metrics.uptime { uptime = v }
    if let v = metrics.cpu { cpu = v }
    if let v = metrics.memUsed { memUsed = v }
    memTotal = MetricField.mergedCapacity(memTotal, metrics.memTotal)
    if let v = metrics.swapUsed { swapUsed = v }
    if let v = metrics.swapTotal { swapTotal = v }
    if let v = metrics.diskUsed { diskUsed = v }
    diskTotal = MetricField.mergedCapacity(diskTotal, metrics.diskTotal)
    if let v = metrics.netInSpeed { netInSpeed = v }
    if let v = metrics.netOutSpeed { netOutSpeed = v }
    if let v = metrics.netInTransfer { netInTransfer = v }
    if let v = metrics.netOutTransfer { netOutTransfer = v }
    if let v = metrics.load1 { load1 = v }
    if let v = metrics.load5 { load5 = v }
    if let v = metrics.load15 { load15 = v }
    if let v = metrics.tcpConn { tcpConn = v }
    if let v = metrics.udpConn { udpConn = v }
    if let v = metrics.processCount { processCount = v }
    if let v = metrics.diskReadBytesPerSec { diskReadBytesPerSec = v }
    if let v = metrics.diskWriteBytesPerSec { diskWriteBytesPerSec = v }
  }
}
