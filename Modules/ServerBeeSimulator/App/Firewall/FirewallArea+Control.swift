import Foundation
import ServerBeeModels
import ServerBeeTransport

// `POST /__simulator/firewall/blocks`: an entry of either origin, as a security rule's
// `block_source_ip` action or an admin would make it, at the current or a chosen time.

extension FirewallArea {
  /// Body: `target` (required); `origin` (`auto` by default, or `manual`), `cover_type`
  /// (`all`), `server_ids`, `comment`, `origin_event_id`, `origin_rule_id`, `created_by`, and
  /// `created_at` (RFC 3339; now by default). The target is made canonical (400 as the public
  /// route) and a duplicate is its 409; the guard rails and the allow list are not consulted,
  /// so any entry can be seeded. Broadcasts `blocklist_changed` → `{"data": BlockListItem}`.
  func controlCreateBlock(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    let input = try body.string("target")
    guard let network = FirewallNetwork(input) else {
      throw APIError.badRequest("invalid IP or CIDR: \(input)")
    }
    var createdAt = now
    if let text = try body.optionalString("created_at") {
      guard let time = try? RFC3339Timestamp(parsing: text) else {
        throw APIError.badRequest("created_at is not an RFC 3339 time: \(text)")
      }
      createdAt = time.secondsSince1970 * SimulatorCore.second + Int64(time.nanoseconds)
    }
    let block = try insert(
      network, coverType: try body.optionalString("cover_type") ?? "all",
      serverIDs: try body.strings("server_ids"), comment: try body.optionalString("comment"),
      origin: try body.optionalString("origin") ?? "auto",
      originEventID: try body.optionalString("origin_event_id"),
      originRuleID: try body.optionalString("origin_rule_id"),
      createdBy: try body.optionalString("created_by"), createdAt: createdAt)
    try broadcast(.created, block)
    return Reply.data(block)
  }
}
