import ServerBeeModels
import Testing

@testable import NotificationPreferences

/// The line that names a test push's cause, beside the app's status line.
@Suite struct TestPushReasonTextTests {
  @Test func aTestOnItsWayOrDeliveredNeedsNoExplanation() {
    for language in TestPushStatusText.Language.allCases {
      #expect(TestPushStatusText.reasonLine(for: .queued, language: language) == nil)
      #expect(TestPushStatusText.reasonLine(for: .accepted, language: language) == nil)
    }
  }

  /// A relay that refuses the server's request (the server's clock ahead of the relay's, say)
  /// points at the clocks, not at the notification setup.
  @Test func aRelayRefusalPointsAtTheClocks() throws {
    let line = try #require(
      TestPushStatusText.reasonLine(for: .relayPayloadRejected, language: .english))
    #expect(line.contains("server's clock agrees with the relay's"))
    #expect(line.hasSuffix("(RelayPayloadRejected)"))
    #expect(!line.contains("Retry notification setup"))
    let chinese = try #require(
      TestPushStatusText.reasonLine(for: .relayPayloadRejected, language: .simplifiedChinese))
    #expect(chinese.contains("时钟"))
  }

  @Test func everyKnownReasonIsExplainedInBothLanguages() throws {
    let reasons: [PushDeliveryReason] = [
      .expired, .ineligible, .unregistered, .providerUnavailable, .networkUnavailable,
      .requestTimeout, .deviceOrEnvironmentMismatch, .providerConfigurationOrPayload,
      .payloadTooLarge, .relayUnavailable, .relayNotConfigured, .relayPayloadRejected,
      .invalidRequest, .environmentDisabled, .rateLimited, .relayBusy,
    ]
    for reason in reasons {
      let english = try #require(TestPushStatusText.reasonLine(for: reason, language: .english))
      let chinese = try #require(
        TestPushStatusText.reasonLine(for: reason, language: .simplifiedChinese))
      #expect(!english.hasPrefix("The server stopped the delivery"), "\(reason.rawValue)")
      #expect(!chinese.hasPrefix("Server 已停止投递"), "\(reason.rawValue)")
    }
  }

  @Test func anUnknownReasonIsNamed() {
    let line = TestPushStatusText.reasonLine(
      for: PushDeliveryReason(rawValue: "SomethingNew"), language: .english)
    #expect(line == "The server stopped the delivery (SomethingNew).")
  }
}
