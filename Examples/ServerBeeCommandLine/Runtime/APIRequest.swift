import ServerBeeAPI
import ServerBeeModels

/// One REST call of a command: behind a spinner, with the answers a user can act on named in
/// the command's own words (everything else is named by ``ErrorLine``).
enum APIRequest {
  /// Runs `work` behind a spinner.
  /// - Parameters:
  ///   - label: The spinner's label.
  ///   - console: Where the spinner goes.
  ///   - notFound: The sentence for a 404 (`.notFound`), if the command has one.
  ///   - forbidden: The sentence for a 403 (`.forbidden`), if the command has one.
  ///   - work: The call.
  /// - Returns: What `work` returns.
  /// - Throws: ``CommandLineError`` (`.notFound`, `.notPermitted`), or what
  ///   `work` throws.
  static func run<T: Sendable>(
    _ label: String, console: Console, notFound: String? = nil, forbidden: String? = nil,
    _ work: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    do {
      return try await Spinner.run(label, console: console, work)
    } catch let error as ServerBeeAPIError where error.code == .notFound && notFound != nil {
      throw CommandLineError(.notFound, notFound ?? "", underlying: error)
    } catch let error as ServerBeeAPIError where error.code == .forbidden && forbidden != nil {
      throw CommandLineError(.notPermitted, forbidden ?? "", underlying: error)
    }
  }

  /// The names of the servers by id, for tables that would otherwise show bare ids; best
  /// effort (empty when the list cannot be loaded).
  static func serverNames(_ api: ServerBeeAPIClient) async -> [String: String] {
    guard let servers = try? await api.servers() else { return [:] }
    return Dictionary(servers.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
  }
}
