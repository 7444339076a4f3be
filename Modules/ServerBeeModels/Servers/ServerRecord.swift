public import Foundation

/// One metric sample from `GET /api/servers/{id}/records` (wire contract v1 §5.2).
///
/// Raw rows are single reports; hourly rows average the gauges and keep the counters at their
/// maximum. There are no `*_total` fields: take them from ``ServerResponse``. Metric floats that
/// arrive as `null` decode as `.nan` (see ``ServerStatus``).
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
  /// Row id.
  public var id: Int64
  /// The server.
  public var serverID: String
  /// Sample time (`Z` form).
  public var time: RFC3339Timestamp
  /// CPU percent.
  public var cpu: Double
  /// Memory in use, bytes.
  public var memUsed: Int64
  /// Swap in use, bytes.
  public var swapUsed: Int64
  /// Disk in use, bytes.
  public var diskUsed: Int64
  /// Inbound speed, bytes per second.
  public var netInSpeed: Int64
  /// Outbound speed, bytes per second.
  public var netOutSpeed: Int64
  /// Cumulative inbound bytes.
  public var netInTransfer: Int64
  /// Cumulative outbound bytes.
  public var netOutTransfer: Int64
  /// 1-minute load average.
  public var load1: Double
  /// 5-minute load average.
  public var load5: Double
  /// 15-minute load average.
  public var load15: Double
  /// Open TCP connections.
  public var tcpConn: Int
  /// Open UDP sockets.
  public var udpConn: Int
  /// Running processes.
  public var processCount: Int
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
  ///   - id: Row id.
  ///   - serverID: Server id.
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
    id: Int64, serverID: String, time: RFC3339Timestamp, cpu: Double = 0, memUsed: Int64 = 0,
    swapUsed: Int64 = 0, diskUsed: Int64 = 0, netInSpeed: Int64 = 0, netOutSpeed: Int64 = 0,
    netInTransfer: Int64 = 0, netOutTransfer: Int64 = 0, load1: Double = 0, load5: Double = 0,
    load15: Double = 0, tcpConn: Int = 0, udpConn: Int = 0, processCount: Int = 0,
    temperature: Double? = nil, gpuUsage: Double? = nil, diskIOJSON: String? = nil
  ) {
    self.id = id
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

  private enum CodingKeys: String, CodingKey {
    case id
    case serverID = "server_id"
    case time, cpu
    case memUsed = "mem_used"
    case swapUsed = "swap_used"
    case diskUsed = "disk_used"
    case netInSpeed = "net_in_speed"
    case netOutSpeed = "net_out_speed"
    case netInTransfer = "net_in_transfer"
    case netOutTransfer = "net_out_transfer"
    case load1, load5, load15
    case tcpConn = "tcp_conn"
    case udpConn = "udp_conn"
    case processCount = "process_count"
    case temperature
    case gpuUsage = "gpu_usage"
    case diskIOJSON = "disk_io_json"
  }

  /// Decodes a record; `null` metric floats become `.nan`, and an invalid `disk_io_json` leaves
  /// ``diskIO`` `nil` without failing.
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      id: try c.decode(Int64.self, forKey: .id),
      serverID: try c.decode(String.self, forKey: .serverID),
      time: try c.decode(RFC3339Timestamp.self, forKey: .time),
      cpu: try c.decodeMetric(forKey: .cpu),
      memUsed: try c.decode(Int64.self, forKey: .memUsed),
      swapUsed: try c.decode(Int64.self, forKey: .swapUsed),
      diskUsed: try c.decode(Int64.self, forKey: .diskUsed),
      netInSpeed: try c.decode(Int64.self, forKey: .netInSpeed),
      netOutSpeed: try c.decode(Int64.self, forKey: .netOutSpeed),
      netInTransfer: try c.decode(Int64.self, forKey: .netInTransfer),
      netOutTransfer: try c.decode(Int64.self, forKey: .netOutTransfer),
      load1: try c.decodeMetric(forKey: .load1),
      load5: try c.decodeMetric(forKey: .load5),
      load15: try c.decodeMetric(forKey: .load15),
      tcpConn: try c.decode(Int.self, forKey: .tcpConn),
      udpConn: try c.decode(Int.self, forKey: .udpConn),
      processCount: try c.decode(Int.self, forKey: .processCount),
      temperature: try c.decodeIfPresent(Double.self, forKey: .temperature),
      gpuUsage: try c.decodeIfPresent(Double.self, forKey: .gpuUsage),
      diskIOJSON: try c.decodeIfPresent(String.self, forKey: .diskIOJSON))
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

  /// The query items, times in the `Z` form (a `+` would turn into a space in a query string).
  public var queryItems: [URLQueryItem] {
    [
      URLQueryItem(name: "from", value: from.formatted(.zulu)),
      URLQueryItem(name: "to", value: to.formatted(.zulu)),
      URLQueryItem(name: "interval", value: interval.rawValue),
    ]
  }
}
