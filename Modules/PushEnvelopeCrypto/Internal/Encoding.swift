import ServerBeeCore

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Byte/text conversions with the strictness the envelope format needs.
enum Encoding {
  /// Whether `UUID(uuidString:)` reads `text` as a UUID. The canonical form (36 characters,
  /// hyphens at offsets 8, 13, 18 and 23, hex digits of either case elsewhere) is recognised
  /// here; anything else is left to `UUID(uuidString:)`, which parses with `sscanf` (about 3 k
  /// instructions a call) and so also takes forms such as a space or `+` before a hex pair.
  static func isUUID(_ text: String) -> Bool {
    UUIDText.isCanonical(text) || UUID(uuidString: text) != nil
  }
}
