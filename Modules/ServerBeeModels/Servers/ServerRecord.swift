#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// One metric sample from `GET /api/servers/{id}/records` (Protocol/Servers.md §2).
///
/// Raw rows are single reports; hourly rows average the gauges and keep the counters at their
/// maximum. There are no `*_total` fields: take them from ``ServerResponse``. Metric floats that
/// arrive as `null` decode as `.nan` (see ``ServerStatus``).
///
/// Decoding is as tolerant as the official app: only `time` is required, and it is the record's
/// identity (``id``) — a row id and a server id are kept when the server sends them
/// (``rowID``, ``serverID``), and a row without them decodes (Protocol/Servers.md §2). The
/// shared rules of ``ServerStatus`` apply to the rest: a metric column an older or newer server
/// leaves out is `nil`, never `0`; the legacy aliases (`cpu_usage`, `memory_used`,
/// `network_in`, `network_out`, `tcp_count`, `udp_count`) are read.
///
/// `disk_io_json` is JSON **inside a string**. The raw text is kept in ``diskIOJSON`` (and written
/// back unchanged); ``diskIO`` holds it parsed, or `nil` when it is `null` or not valid. Invalid
/// inner JSON never fails the record; call ``decodeDiskIO()`` to see why it did not parse.
///
/// ```swift
/// let query = ServerRecordsQuery(from: start, to: end, interval: .auto)
/// let records = try APIResponse<[ServerRecord]>.payload(status: status, body: body)
/// let writes = records.map { $0.diskIO?.reduce(0) { $0 + $1.writeBytesPerSec } ?? 0 }
/// ```
public struct ServerRecord: Codable, Hashable, Sendable, Identifiable {
  /// The row id (`id`), when the server sends it.
  public var rowID: Int64?
  /// The server (`server_id`), when the server sends it.
  public var serverID: String?
  /// Sample time (`Z` form).
  public var time: RFC3339Timestamp
  /// The record's identity, its sample time, as the official app uses it: rows carry no other
  /// field every server sends.
  public var id: RFC3339Timestamp { time }
  /// CPU percent.
  public var cpu: Double?
  /// Memory in use, bytes.
  public var memUsed: Int64?
  /// Swap in use, bytes.
  public var swapUsed: Int64?
  /// Disk in use, bytes.
  public var diskUsed: Int64?
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
  /// Temperature, °C, if measured.
  public var temperature: Double?
  /// GPU use, percent, if measured.
  public var gpuUsage: Double?
  /// The `disk_io_json` text as sent. Setting it re-parses ``diskIO``.
  public var diskIOJSON: String? {
    didSet { diskIO = Self.parseDiskIO(diskIOJSON) }
  }
  /// Per-disk rates parsed from ``diskIOJSON``; `nil` when it is `null` or invalid.
  public private(set) var diskIO: [DiskIO]?

  /// Creates a record.
  /// - Parameters:
  ///   - rowID: Row id, if known.
  ///   - serverID: Server id, if known.
  ///   - time: Sample time.
  ///   - cpu: CPU percent.
  ///   - memUsed: Bytes.
  ///   - swapUsed: Bytes.
  ///   - diskUsed: Bytes.
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
  ///   - temperature: °C.
  ///   - gpuUsage: Percent.
  ///   - diskIOJSON: The `disk_io_json` text; build it with ``diskIOJSON(for:)``.
  public init(
    rowID: Int64? = nil, serverID: String? = nil, time: RFC3339Timestamp, cpu: Double? = nil,
    memUsed: Int64? = nil, swapUsed: Int64? = nil, diskUsed: Int64? = nil,
    netInSpeed: Int64? = nil, netOutSpeed: Int64? = nil, netInTransfer: Int64? = nil,
    netOutTransfer: Int64? = nil, load1: Double? = nil, load5: Double? = nil,
    load15: Double? = nil, tcpConn: Int? = nil, udpConn: Int? = nil, processCount: Int? = nil,
    temperature: Double? = nil, gpuUsage: Double? = nil, diskIOJSON: String? = nil
  ) {
    self.rowID = rowID
    self.serverID = serverID
    self.time = time
    self.cpu = cpu
    self.memUsed = memUsed
    self.swapUsed = swapUsed
    self.diskUsed = diskUsed
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
    self.temperature = temperature
    self.gpuUsage = gpuUsage
    self.diskIOJSON = diskIOJSON
    self.diskIO = Self.parseDiskIO(diskIOJSON)
  }

  /// Parses ``diskIOJSON``, reporting why it is invalid.
  /// - Returns: The per-disk rates, or `nil` when `disk_io_json` is `null`.
  /// - Throws: ``ServerBeeModelsError`` (`malformedJSON`, `missingField` or `invalidField`) when
  ///   the text is not a JSON array of disk objects.
  public func decodeDiskIO() throws -> [DiskIO]? {
    guard let diskIOJSON else { return nil }
    return try WireJSON.decode([DiskIO].self, from: Data(diskIOJSON.utf8))
  }

  /// Writes per-disk rates as `disk_io_json` text, the way the server stores it.
  /// - Parameter disks: The rates.
  /// - Returns: For example `[{"name":"sda","read_bytes_per_sec":0,"write_bytes_per_sec":4096}]`.
  public static func diskIOJSON(for disks: [DiskIO]) -> String {
    // Encoding plain structs of strings and integers cannot fail.
    String(decoding: (try? WireJSON.encode(disks)) ?? Data("[]".utf8), as: UTF8.self)
  }

  private static func parseDiskIO(_ text: String?) -> [DiskIO]? {
    guard let text else { return nil }
    return try? WireJSON.decode([DiskIO].self, from: Data(text.utf8))
  }

  private static let idKey = WireKey("id")
  private static let serverIDKey = WireKey("server_id")
  private static let timeKey = WireKey("time")
  private static let temperatureKey = WireKey("temperature")
  private static let gpuUsageKey = WireKey("gpu_usage")
  private static let diskIOKey = WireKey("disk_io_json")

  /// Decodes a record with the shared rules: `null` metric floats become `.nan`, absent metric
  /// columns are `nil`, aliases are read, and an invalid `disk_io_json` leaves ``diskIO`` `nil`
  /// without failing.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field when `time` is missing or a value has the wrong
  ///   type.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(
      rowID: try c.decodeIfPresent(Int64.self, forKey: Self.idKey),
      serverID: try c.decodeIfPresent(String.self, forKey: Self.serverIDKey),
      time: try c.decode(RFC3339Timestamp.self, forKey: Self.timeKey),
      cpu: try c.decodeMetricField(.cpu),
      memUsed: try c.decodeField(Int64.self, .memUsed),
      swapUsed: try c.decodeField(Int64.self, .swapUsed),
      diskUsed: try c.decodeField(Int64.self, .diskUsed),
      netInSpeed: try c.decodeField(Int64.self, .netInSpeed),
      netOutSpeed: try c.decodeField(Int64.self, .netOutSpeed),
      netInTransfer: try c.decodeField(Int64.self, .netInTransfer),
      netOutTransfer: try c.decodeField(Int64.self, .netOutTransfer),
      load1: try c.decodeMetricField(.load1),
      load5: try c.decodeMetricField(.load5),
      load15: try c.decodeMetricField(.load15),
      tcpConn: try c.decodeField(Int.self, .tcpConn),
      udpConn: try c.decodeField(Int.self, .udpConn),
      processCount: try c.decodeField(Int.self, .processCount),
      temperature: try c.decodeIfPresent(Double.self, forKey: Self.temperatureKey),
      gpuUsage: try c.decodeIfPresent(Double.self, forKey: Self.gpuUsageKey),
      diskIOJSON: try c.decodeIfPresent(String.self, forKey: Self.diskIOKey))
  }

  /// Encodes in wire order under the current keys: an unknown row id, server id or metric is left
  /// out, and
  /// `temperature`, `gpu_usage` and `disk_io_json` are `null` when `nil`, as the server writes
  /// them.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.encodeUnlessNil(rowID, forKey: Self.idKey)
    try c.encodeUnlessNil(serverID, forKey: Self.serverIDKey)
    try c.encode(time, forKey: Self.timeKey)
    try c.encodeUnlessNil(cpu, forKey: WireKey(.cpu))
    try c.encodeUnlessNil(memUsed, forKey: WireKey(.memUsed))
    try c.encodeUnlessNil(swapUsed, forKey: WireKey(.swapUsed))
    try c.encodeUnlessNil(diskUsed, forKey: WireKey(.diskUsed))
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
    try c.encode(temperature, forKey: Self.temperatureKey)
    try c.encode(gpuUsage, forKey: Self.gpuUsageKey)
    try c.encode(diskIOJSON, forKey: Self.diskIOKey)
  }
}

/// One disk's rates inside `disk_io_json`.
public struct DiskIO: Codable, Hashable, Sendable {
  /// Device name, for example `sda`.
  public var name: String
  /// Reads, bytes per second.
  public var readBytesPerSec: Int64
  /// Writes, bytes per second.
  public var writeBytesPerSec: Int64

  /// Creates a disk entry.
  /// - Parameters:
  ///   - name: Device name.
  ///   - readBytesPerSec: Reads per second, bytes.
  ///   - writeBytesPerSec: Writes per second, bytes.
  public init(name: String, readBytesPerSec: Int64, writeBytesPerSec: Int64) {
    self.name = name
    self.readBytesPerSec = readBytesPerSec
    self.writeBytesPerSec = writeBytesPerSec
  }

  private enum CodingKeys: String, CodingKey {
    case name
    case readBytesPerSec = "read_bytes_per_sec"
    case writeBytesPerSec = "write_bytes_per_sec"
  }
}

/// The `interval` query value of the records endpoint (unknown values survive; the server treats
/// anything other than `raw` and `hourly` as `auto`).
public struct RecordInterval: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates an interval.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Every report (kept about 7 days).
  public static let raw: Self = "raw"
  /// Hourly aggregates (kept about 90 days).
  public static let hourly: Self = "hourly"
  /// Hourly when the range exceeds 24 h, raw otherwise (the default).
  public static let auto: Self = "auto"
}

/// The query of `GET /api/servers/{id}/records`: `from`, `to` and `interval`.
///
/// ```swift
/// var components = URLComponents(string: "\(base)/api/servers/\(id)/records")
/// components?.queryItems = ServerRecordsQuery(from: start, to: end).queryItems
/// ```
public struct ServerRecordsQuery: Hashable, Sendable {
  /// Range start (inclusive).
  public var from: RFC3339Timestamp
  /// Range end.
  public var to: RFC3339Timestamp
  /// Resolution.
  public var interval: RecordInterval

  /// Creates a query.
  /// - Parameters:
  ///   - from: Range start.
  ///   - to: Range end.
  ///   - interval: Resolution, `auto` by default.
  public init(from: RFC3339Timestamp, to: RFC3339Timestamp, interval: RecordInterval = .auto) {
    self.from = from
    self.to = to
    self.interval = interval
  }

  /// The query of the last `duration` up to `end`, as a history chart's range picker asks
  /// (`1h`, `6h`, `24h`, `7d`).
  ///
  /// ```swift
  /// let lastDay = ServerRecordsQuery(last: .seconds(24 * 3600), endingAt: Date())
  /// ```
  /// - Parameters:
  ///   - duration: How far back from `end`; a negative duration counts as its magnitude.
  ///   - end: Range end (the caller's clock, so tests pass a fixed date).
  ///   - interval: Resolution, `auto` by default (hourly for ranges over 24 h).
  public init(last duration: Duration, endingAt end: Date, interval: RecordInterval = .auto) {
    let (seconds, attoseconds) = duration.components
    let span = abs(Double(seconds) + Double(attoseconds) / 1e18)
    self.init(
      from: RFC3339Timestamp(end.addingTimeInterval(-span)), to: RFC3339Timestamp(end),
      interval: interval)
  }

  /// The query items, times in the `Z` form (a `+` would turn into a space in a query string).
  public var queryItems: [URLQueryItem] {
    [
      URLQueryItem(name: "from", value: from.formatted(.zulu)),
      URLQueryItem(name: "to", value: to.formatted(.zulu)),
      URLQueryItem(name: "interval", value: interval.rawValue),
    ]
  }
}
