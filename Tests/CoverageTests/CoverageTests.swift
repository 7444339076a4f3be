import Foundation
import ServerBeeRoutes
import Testing

@testable import ServerBeeCommandLine
@testable import ServerBeeSimulator

/// `Documentation/Coverage.md` is what the code says today.
@Suite struct CoverageTests {
  static let document = SourceReferences.repository
    .appendingPathComponent("Documentation/Coverage.md")

  /// Route key → the commands that use it (their own routes, not the session's housekeeping),
  /// from the command line's declarations.
  static func commands() -> [String: [String]] {
    var commands: [String: [String]] = [:]
    for command in CommandCatalog.all {
      for key in Set(command.routeKeys) { commands[key, default: []].append(command.fullName) }
    }
    return commands.mapValues { $0.sorted() }
  }

  @Test func theCoverageDocumentIsCurrent() throws {
    let generated = try CoverageDocument(commands: Self.commands()).text
    if ProcessInfo.processInfo.environment["SERVERBEE_WRITE_COVERAGE"] == "1" {
      try generated.write(to: Self.document, atomically: true, encoding: .utf8)
    }
    let stored = (try? String(contentsOf: Self.document, encoding: .utf8)) ?? ""
    #expect(
      stored == generated,
      "Documentation/Coverage.md is stale: run scripts/coverage.sh and commit the result")
  }

  /// Every catalogue route is sent by some SDK function and served by the simulator.
  @Test func everyCatalogueRouteIsSentAndServed() throws {
    let document = try CoverageDocument(commands: [:])
    for row in document.rows where row.route != nil {
      #expect(row.sdk, "\(row.entry.method) \(row.entry.path): no SDK function sends it")
      #expect(row.served, "\(row.entry.method) \(row.entry.path): the simulator does not serve it")
    }
    for extra in document.extras {
      #expect(!extra.senders.isEmpty, "\(extra.route.requestLine): no SDK function sends it")
      #expect(extra.served, "\(extra.route.requestLine): the simulator does not serve it")
    }
  }

  @Test func theInventoryHolds122RoutesAndTwoSockets() {
    let keys = AppInventory.entries.map(\.key)
    #expect(keys.count == 124)
    #expect(Set(keys).count == 124)
    #expect(AppInventory.entries.filter { $0.number.hasPrefix("W") }.count == 2)
  }

  @Test func aFunctionIsNamedWithItsLabels() {
    let text: Substring =
      "  public func records(\n    serverID: String, from: Date, _ x: Int = 1\n  ) {\n"
    #expect(SourceReferences.enclosingFunction(in: text) == "records(serverID:from:_:)")
    #expect(SourceReferences.enclosingFunction(in: "func servers() async") == "servers()")
    #expect(
      SourceReferences.enclosingFunction(in: "func send<P, R>(_ route: APIRoute<P, R>, b: [Int])")
        == "send(_:b:)")
  }
}
