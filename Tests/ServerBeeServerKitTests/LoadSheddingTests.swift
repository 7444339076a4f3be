import Testing

@testable import ServerBeeServerKit

/// The choice of the connection a full server closes: idle first, then the longest-receiving
/// one past its grace period, never one handling a request.
@Suite struct LoadSheddingTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    /// Per connection: `i<age>` idle for age seconds, `r<age>` receiving for age seconds, `h`.
    var connections: [String]
    var grace: Int
    /// The index of the connection shed, or `nil`.
    var expected: Int?
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "nothing open", connections: [], grace: 1, expected: nil),
    Case(name: "all handling", connections: ["h", "h"], grace: 0, expected: nil),
    Case(name: "oldest receiving", connections: ["r3", "r9", "r5"], grace: 1, expected: 1),
    Case(
      name: "idle before older receiving", connections: ["r9", "i1", "h"], grace: 1, expected: 1),
    Case(name: "longest idle", connections: ["i2", "i7", "r9"], grace: 1, expected: 1),
    Case(name: "idle even within grace", connections: ["r9", "i0"], grace: 5, expected: 1),
    Case(
      name: "receiving within grace kept", connections: ["r2", "r3", "h"], grace: 5, expected: nil),
    Case(name: "only the one past grace", connections: ["r2", "r6", "r4"], grace: 5, expected: 1),
    Case(name: "grace zero sheds the newest too", connections: ["r0"], grace: 0, expected: 0),
  ]

  @Test(arguments: cases) func victim(_ test: Case) {
    let now = ContinuousClock.now
    let candidates = test.connections.enumerated().map { index, text in
      let age = Duration.seconds(Int(text.dropFirst()) ?? 0)
      let activity: ConnectionActivity =
        switch text.first {
        case "i": .idle(since: now - age)
        case "r": .receiving(since: now - age)
        default: .handling
        }
      return LoadShedding.Candidate(id: index, activity: activity)
    }
    #expect(
      LoadShedding.victim(among: candidates, now: now, grace: .seconds(test.grace))
        == test.expected)
  }
}
