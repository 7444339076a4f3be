import ServerBeeAPI
import ServerBeeModels

/// What a list command does once its request is decided: load the list with the command's
/// credential behind a spinner, then print it as JSON with `--json`, as one sentence when it is
/// empty ("No ping tasks."), or else as a table (and whatever follows it).
///
/// ```swift
/// let tasks = try await ListOutput.load(context, "Loading ping tasks") { try await $0.pingTasks() }
/// try await ListOutput.print(
///   tasks, empty: "No ping tasks.", console: context.console,
///   columns: [.left("NAME"), .left("ID")]
/// ) { [Formatting.excerpt($0.name), $0.id] }
/// ```
enum ListOutput {
  /// Loads a list with the command's API client (`APICredential.client(_:)`), behind a
  /// spinner labelled `label`.
  /// - Parameters:
  ///   - context: The command.
  ///   - label: The spinner's words, like "Loading ping tasks".
  ///   - notFound: The sentence for a 404, when the list belongs to something that may not exist.
  ///   - forbidden: The sentence for a 403, when only some accounts may read the list.
  ///   - load: The request.
  /// - Returns: What `load` returned.
  /// - Throws: ``CommandLineError`` for no credential, a 404 or a 403 named above, and the
  ///   request's own errors.
  static func load<Items: Sendable>(
    _ context: CommandContext, _ label: String, notFound: String? = nil,
    forbidden: String? = nil,
    _ load: @escaping @Sendable (ServerBeeAPIClient) async throws -> Items
  ) async throws -> Items {
    let api = try await APICredential.client(context)
    return try await APIRequest.run(
      label, console: context.console, notFound: notFound, forbidden: forbidden
    ) { try await load(api) }
  }

  /// Prints `items`: `json` with `--json`, `empty` when there are none, else the text `render`
  /// makes of them (called only then, so a lookup it needs is made only then).
  /// - Parameters:
  ///   - items: The list.
  ///   - json: What `--json` prints (often the list itself, sometimes a page or a safe view).
  ///   - empty: The sentence for an empty list.
  ///   - console: Where to print.
  ///   - render: The text of a list that is not empty; printed as a line.
  /// - Throws: An encoding error, and what `render` throws.
  static func print<Item, JSON: Encodable>(
    _ items: [Item], json: JSON, empty: String, console: Console,
    render: ([Item]) async throws -> String
  ) async throws {
    if console.json {
      console.json(try WireJSON.encode(json))
    } else if items.isEmpty {
      console.line(empty)
    } else {
      console.line(try await render(items))
    }
  }

  /// Prints `items` as ``print(_:json:empty:console:render:)`` does, `--json` writing the list.
  static func print<Item: Encodable>(
    _ items: [Item], empty: String, console: Console,
    render: ([Item]) async throws -> String
  ) async throws {
    try await print(items, json: items, empty: empty, console: console, render: render)
  }

  /// Prints `items` as ``print(_:json:empty:console:render:)`` does, as a table of `columns`
  /// with a `row` per item.
  static func print<Item, JSON: Encodable>(
    _ items: [Item], json: JSON, empty: String, console: Console,
    columns: [TextTable.Column], row: (Item) -> [String]
  ) async throws {
    try await print(items, json: json, empty: empty, console: console) {
      table($0, columns: columns, row: row)
    }
  }

  /// Prints `items` as a table of `columns` with a `row` per item, `--json` writing the list.
  static func print<Item: Encodable>(
    _ items: [Item], empty: String, console: Console, columns: [TextTable.Column],
    row: (Item) -> [String]
  ) async throws {
    try await print(
      items, json: items, empty: empty, console: console, columns: columns, row: row)
  }

  /// A table of `columns` with a `row` per item, as text.
  static func table<Item>(
    _ items: [Item], columns: [TextTable.Column], row: (Item) -> [String]
  ) -> String {
    var table = TextTable(columns: columns)
    for item in items { table.append(row(item)) }
    return table.render()
  }
}
