/// `GET /api/geoip/status` and `GET /api/asn/status` (Protocol/Administration.md §4.1): whether the
/// lookup database is installed, and which file.
///
/// ```swift
/// let geo = try await api.geoIPStatus()
/// if !geo.installed { _ = try await api.downloadGeoIP() }
/// ```
public struct GeoDatabaseStatus: Codable, Hashable, Sendable {
  /// Whether a database is installed. The other members are `nil` when it is not.
  public var installed: Bool
  /// `custom` (a configured file) or `downloaded`.
  public var source: String?
  /// The file's size in bytes.
  public var fileSize: Int64?
  /// The file's modification time (`+00:00` form).
  public var updatedAt: RFC3339Timestamp?

  /// Creates the value.
  /// - Parameters:
  ///   - installed: Whether installed.
  ///   - source: Source.
  ///   - fileSize: Size in bytes.
  ///   - updatedAt: File time.
  public init(
    installed: Bool, source: String? = nil, fileSize: Int64? = nil,
    updatedAt: RFC3339Timestamp? = nil
  ) {
    self.installed = installed
    self.source = source
    self.fileSize = fileSize
    self.updatedAt = updatedAt
  }

  private enum CodingKeys: String, CodingKey {
    case installed, source
    case fileSize = "file_size"
    case updatedAt = "updated_at"
  }

  /// Writes `installed`, then the three details only when set (the server leaves them out
  /// when nothing is installed).
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(installed, forKey: .installed)
    if let source { try c.encode(source, forKey: .source) }
    if let fileSize { try c.encode(fileSize, forKey: .fileSize) }
    if let updatedAt { try c.encode(updatedAt, forKey: .updatedAt) }
  }
}

/// `POST /api/geoip/download` and `POST /api/asn/download` answer: always HTTP 200, with
/// whether the download worked and the server's message (for example `Download already in
/// progress`).
public struct GeoDatabaseDownloadResult: Codable, Hashable, Sendable {
  /// Whether the database was installed.
  public var success: Bool
  /// The server's message.
  public var message: String

  /// Creates the value.
  /// - Parameters:
  ///   - success: Whether installed.
  ///   - message: The message.
  public init(success: Bool, message: String) {
    self.success = success
    self.message = message
  }
}
