import ServerBeeModels
import Testing

@testable import NotificationPreferences

@Suite struct TestPushStatusTextTests {
  static let english: [(PushOutcome, String)] = [
    (.accepted, "APNs accepted the notification. Device presentation has not been observed."),
    (.pending, "Encrypted test queued on the Server. Provider acceptance is pending."),
    (
      .retryable,
      "Delivery will retry for up to 30 minutes from creation. Provider acceptance is unconfirmed."
    ),
    (.expired, "The test expired after 30 minutes. Send a new test to try again."),
    (.permanent, "Delivery stopped. Retry notification setup before sending a new test."),
    ("something-new", "Delivery stopped. Retry notification setup before sending a new test."),
  ]

  @Test(arguments: 0..<english.count)
  func theEnglishLinesAreTheContractsVerbatim(_ index: Int) {
    let (outcome, line) = Self.english[index]
    #expect(TestPushStatusText.line(for: outcome, language: .english) == line)
  }

  @Test func everyOutcomeHasADistinctChineseLine() {
    let outcomes: [PushOutcome] = [.accepted, .pending, .retryable, .expired, .permanent]
    let lines = Set(outcomes.map { TestPushStatusText.line(for: $0, language: .simplifiedChinese) })
    #expect(lines.count == 5)
    #expect(!TestPushStatusText.line(for: .accepted, language: .simplifiedChinese).contains("已展示"))
  }
}
