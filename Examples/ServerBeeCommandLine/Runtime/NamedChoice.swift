import ServerBeeCore

/// The one item of a list a user named on the command line: by its id, else by its one name
/// (case-insensitive), as `serverbee` resolves servers, groups and monitors.
enum NamedChoice {
  /// The item named by `text`.
  /// - Parameters:
  ///   - text: What the user typed.
  ///   - items: The candidates.
  ///   - noun: What they are, singular and plural (`("server", "servers")`).
  ///   - list: The command that lists them (`serverbee servers`).
  ///   - id: An item's id.
  ///   - name: An item's name.
  /// - Returns: The item whose id is `text`, else the one whose name is.
  /// - Throws: ``CommandLineError`` `.notFound` for no match, `.usage` for a name several
  ///   items share.
  static func pick<Item>(
    _ text: String, in items: [Item], noun: (String, String), list: String,
    id: (Item) -> String, name: (Item) -> String
  ) throws -> Item {
    if let item = items.first(where: { id($0) == text }) { return item }
    let named = items.filter { name($0).lowercased() == text.lowercased() }
    switch named.count {
    case 1:
      return named[0]
    case 0:
      throw CommandLineError(.notFound, "no \(noun.0) '\(text)' (see '\(list)')")
    default:
      throw CommandLineError(
        .usage,
        "\(named.count) \(noun.1) are named '\(text)': give the id instead ("
          + named.map(id).joined(separator: ", ") + ")")
    }
  }
}
