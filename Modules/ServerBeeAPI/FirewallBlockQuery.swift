public import ServerBeeModels
import ServerBeeTransport

/// The filters and page size of `GET /api/firewall/blocks` (Protocol/Firewall.md §2); every
/// member is optional.
///
/// ```swift
/// let query = FirewallBlockQuery(origin: .manual, targetContains: "203.0.113.", pageSize: 200)
/// let blocks = try await api.allFirewallBlocks(query)
/// ```
public struct FirewallBlockQuery: Hashable, Sendable {
  /// Only entries of this origin.
  public var origin: FirewallBlockOrigin?
  /// Only entries whose canonical target contains this text (the server's `target_q`).
  public var targetContains: String?
  /// Entries per page, 1 to 200; `nil` leaves it to the server (50).
  public var pageSize: Int?

  /// Creates a query; with no arguments, every entry, 50 a page.
  /// - Parameters:
  ///   - origin: Origin filter.
  ///   - targetContains: Substring of the target.
  ///   - pageSize: Entries per page (1…200).
  public init(
    origin: FirewallBlockOrigin? = nil, targetContains: String? = nil, pageSize: Int? = nil
  ) {
    self.origin = origin
    self.targetContains = targetContains
    self.pageSize = pageSize
  }

  /// The most entries a page may hold (Protocol/Firewall.md §2).
  public static let maximumPageSize = 200

  /// The query items in the app's order, with the cursor of the page to fetch; a page size
  /// outside 1…200 is refused before anything is sent.
  func items(cursor: String?) throws -> [(String, String?)] {
    if let pageSize, !(1...Self.maximumPageSize).contains(pageSize) {
      throw ServerBeeAPIError(
        .invalidArgument,
        "the blocklist page size must be 1 to \(Self.maximumPageSize), not \(pageSize)")
    }
    return [
      ("limit", pageSize.map(String.init)), ("origin", origin?.rawValue),
      ("target_q", targetContains), ("cursor", cursor),
    ]
  }
}
