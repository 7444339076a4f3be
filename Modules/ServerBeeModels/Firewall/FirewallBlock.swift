#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One entry of the firewall blocklist (Protocol/Firewall.md §1): an address or network the
/// agents block, added by hand (`manual`) or by a security rule (`auto`).
///
/// ``target`` is always the server's canonical CIDR (`203.0.113.7/32`, `2001:db8::/48`), whatever
/// form was sent. Unlike most lists of servers, ``serverIDs`` is a real JSON array.
///
/// ```swift
/// let page = try await api.firewallBlockPage(FirewallBlockQuery(origin: .auto))
/// for block in page.items {
///   print(block.target, block.origin.rawValue, block.createdAt)
/// }
/// ```
public struct FirewallBlock: Codable, Hashable, Sendable, Identifiable {
  /// Entry id.
  public var id: String
  /// The blocked network, canonical: `/32` or `/128` for one address, host bits cleared.
  public var target: String
  /// `4` or `6`.
  public var family: Int
  /// Which servers block it, read with ``serverIDs``.
  public var coverType: FirewallCoverType
  /// The servers ``coverType`` names; `nil` when none were given.
  public var serverIDs: [String]?
  /// A note, if one was given.
  public var comment: String?
  /// Who added it: by hand or a security rule.
  public var origin: FirewallBlockOrigin
  /// The security event that caused an `auto` entry.
  public var originEventID: String?
  /// The security rule that made an `auto` entry.
  public var originRuleID: String?
  /// The user id that added a `manual` entry.
  public var createdBy: String?
  /// When it was added (`+00:00` form); the list's cursor is made from it.
  public var createdAt: RFC3339Timestamp

  /// Creates an entry.
  /// - Parameters:
  ///   - id: Entry id.
  ///   - target: Canonical CIDR.
  ///   - family: 4 or 6.
  ///   - coverType: Scope.
  ///   - serverIDs: The servers of the scope.
  ///   - comment: Note.
  ///   - origin: Manual or auto.
  ///   - originEventID: Causing security event.
  ///   - originRuleID: Causing rule.
  ///   - createdBy: Adding user.
  ///   - createdAt: Creation time.
  public init(
    id: String, target: String, family: Int, coverType: FirewallCoverType = .all,
    serverIDs: [String]? = nil, comment: String? = nil, origin: FirewallBlockOrigin,
    originEventID: String? = nil, originRuleID: String? = nil, createdBy: String? = nil,
    createdAt: RFC3339Timestamp
  ) {
    self.id = id
    self.target = target
    self.family = family
    self.coverType = coverType
    self.serverIDs = serverIDs
    self.comment = comment
    self.origin = origin
    self.originEventID = originEventID
    self.originRuleID = originRuleID
    self.createdBy = createdBy
    self.createdAt = createdAt
  }

  private enum CodingKeys: String, CodingKey {
    case id, target, family
    case coverType = "cover_type"
    case serverIDs = "server_ids"
    case comment, origin
    case originEventID = "origin_event_id"
    case originRuleID = "origin_rule_id"
    case createdBy = "created_by"
    case createdAt = "created_at"
  }

  /// Writes every member, `null` included, in the server's key order.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(target, forKey: .target)
    try c.encode(family, forKey: .family)
    try c.encode(coverType, forKey: .coverType)
    try c.encode(serverIDs, forKey: .serverIDs)
    try c.encode(comment, forKey: .comment)
    try c.encode(origin, forKey: .origin)
    try c.encode(originEventID, forKey: .originEventID)
    try c.encode(originRuleID, forKey: .originRuleID)
    try c.encode(createdBy, forKey: .createdBy)
    try c.encode(createdAt, forKey: .createdAt)
  }
}

/// Which servers block an entry; values a newer server adds still decode.
public struct FirewallCoverType: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a scope from its wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Every server (the default).
  public static let all: Self = "all"
  /// Only the servers listed.
  public static let include: Self = "include"
  /// Every server but those listed.
  public static let exclude: Self = "exclude"
}

/// Who added a blocklist entry; values a newer server adds still decode.
public struct FirewallBlockOrigin: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates an origin from its wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Added by an admin (the app, the web UI, this SDK).
  public static let manual: Self = "manual"
  /// Added by a security rule's `block_source_ip` action.
  public static let auto: Self = "auto"
}

/// One page of `GET /api/firewall/blocks` (Protocol/Firewall.md §2): entries newest first and
/// the cursor of the next page.
///
/// ``nextCursor`` is the `created_at` text of the newest entry **not** on this page, and the
/// server's next page starts strictly before it, so that entry is on no page
/// (Protocol/Firewall.md §2.1). `ServerBeeAPIClient.firewallBlocks(_:)` pages without that loss.
///
/// ```swift
/// let page = try await api.firewallBlockPage()
/// print(page.items.count, page.nextCursor == nil ? "(last page)" : "(more)")
/// ```
public struct FirewallBlockPage: Codable, Hashable, Sendable {
  /// Entries, newest `created_at` first.
  public var items: [FirewallBlock]
  /// A `+00:00` time; `nil` on the last page.
  public var nextCursor: String?

  /// Creates a page.
  /// - Parameters:
  ///   - items: Entries.
  ///   - nextCursor: Next-page cursor.
  public init(items: [FirewallBlock], nextCursor: String? = nil) {
    self.items = items
    self.nextCursor = nextCursor
  }

  private enum CodingKeys: String, CodingKey {
    case items
    case nextCursor = "next_cursor"
  }

  /// Writes both members, a `null` cursor included, as the server does.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(items, forKey: .items)
    try c.encode(nextCursor, forKey: .nextCursor)
  }
}

/// The counts of `GET /api/firewall/stats` (Protocol/Firewall.md §6), over every entry.
///
/// ```swift
/// let stats = try await api.firewallStats()
/// print("\(stats.total) blocked (\(stats.auto) by rules, \(stats.v6) IPv6)")
/// ```
public struct FirewallStats: Codable, Hashable, Sendable {
  /// Every entry.
  public var total: Int
  /// Entries a security rule added.
  public var auto: Int
  /// Entries added by hand (`total` − `auto`).
  public var manual: Int
  /// IPv4 entries (`total` − `v6`).
  public var v4: Int
  /// IPv6 entries.
  public var v6: Int

  /// Creates counts.
  /// - Parameters:
  ///   - total: Every entry.
  ///   - auto: Rule-made entries.
  ///   - manual: Hand-made entries.
  ///   - v4: IPv4 entries.
  ///   - v6: IPv6 entries.
  public init(total: Int, auto: Int, manual: Int, v4: Int, v6: Int) {
    self.total = total
    self.auto = auto
    self.manual = manual
    self.v4 = v4
    self.v6 = v6
  }
}

/// The body of `POST /api/firewall/blocks` (Protocol/Firewall.md §4). Unset members are left
/// out, so the server applies its defaults (`cover_type` `all`, no servers, no comment).
///
/// ```swift
/// // Block one address on every server:
/// let block = try await api.createFirewallBlock(FirewallBlockRequest(target: "203.0.113.7"))
/// // Block a network on two servers only:
/// _ = try await api.createFirewallBlock(
///   FirewallBlockRequest(
///     target: "198.51.100.0/24", coverType: .include, serverIDs: [web, db],
///     comment: "scanner"))
/// ```
public struct FirewallBlockRequest: Codable, Hashable, Sendable {
  /// An address or `address/prefix`; the server makes it canonical.
  public var target: String
  /// Which servers block it; the server does not check the value.
  public var coverType: FirewallCoverType?
  /// The servers `coverType` names.
  public var serverIDs: [String]?
  /// A note.
  public var comment: String?

  /// Creates a body.
  /// - Parameters:
  ///   - target: Address or CIDR.
  ///   - coverType: Scope (server default `all`).
  ///   - serverIDs: The servers of the scope.
  ///   - comment: Note.
  public init(
    target: String, coverType: FirewallCoverType? = nil, serverIDs: [String]? = nil,
    comment: String? = nil
  ) {
    self.target = target
    self.coverType = coverType
    self.serverIDs = serverIDs
    self.comment = comment
  }

  private enum CodingKeys: String, CodingKey {
    case target
    case coverType = "cover_type"
    case serverIDs = "server_ids"
    case comment
  }

  /// Encodes `target` and the set members, in the app's order.
  /// - Parameter encoder: The encoder.
  /// - Throws: Whatever the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(target, forKey: .target)
    try c.encodeUnlessNil(coverType, forKey: .coverType)
    try c.encodeUnlessNil(serverIDs, forKey: .serverIDs)
    try c.encodeUnlessNil(comment, forKey: .comment)
  }
}

/// Why the server refused a blocklist entry (Protocol/Firewall.md §3, §4), read from the
/// documented texts of its 400 and 409 answers.
///
/// ```swift
/// catch let error as ServerBeeAPIError {
///   switch error.apiFailure?.firewallBlockRefusal {
///   case .guardrail(let range)?: print("\(range) may never be blocked")
///   case .alreadyBlocked(let target)?: print("\(target) is blocked already")
///   default: throw error
///   }
/// }
/// ```
public enum FirewallBlockRefusal: Hashable, Sendable {
  /// 400: the target is neither an address nor a CIDR; the target as sent.
  case invalidTarget(String)
  /// 409: the target overlaps a range that is never blocked (loopback, private, link-local,
  /// multicast…); the range.
  case guardrail(String)
  /// 409: the target overlaps the server's allow list or an agent's own address; the entry.
  case allowList(String)
  /// 409: the canonical target is already an entry; the canonical target.
  case alreadyBlocked(String)
}

extension APIFailure {
  /// Why a `POST /api/firewall/blocks` was refused, or `nil` when this failure is not one of
  /// the documented refusals (Protocol/Firewall.md §4).
  ///
  /// ```swift
  /// if case .alreadyBlocked(let target)? = failure.firewallBlockRefusal { print(target) }
  /// ```
  public var firewallBlockRefusal: FirewallBlockRefusal? {
    guard let detail else { return nil }
    func rest(after prefix: String) -> String? {
      detail.hasPrefix(prefix) ? String(detail.dropFirst(prefix.count)) : nil
    }
    switch status {
    case 400:
      return rest(after: "invalid IP or CIDR: ").map(FirewallBlockRefusal.invalidTarget)
    case 409:
      if let range = rest(after: "hits hard-coded guardrail: ") { return .guardrail(range) }
      if let entry = rest(after: "hits allow_list: ") { return .allowList(entry) }
      if let target = rest(after: "target "), target.hasSuffix(" already blocked") {
        return .alreadyBlocked(String(target.dropLast(" already blocked".count)))
      }
      return nil
    default:
      return nil
    }
  }
}
