extension TextTable {
  /// Label and value lines without a heading (a detail view): `label:  value`, values aligned.
  /// - Parameter pairs: The labels (with their colon) and the values; values are made
  ///   terminal-safe.
  /// - Returns: The lines joined by `\n`, without a trailing newline.
  static func keyValue(_ pairs: [(String, String)]) -> String {
    var table = TextTable(columns: [.left(""), .left("")])
    for (label, value) in pairs { table.append([label, value]) }
    // The heading row of a table without titles is blank: drop it.
    return String(table.render().drop { $0 != "\n" }.dropFirst())
  }
}
