import ServerBeeModels
import Testing

@testable import NotificationPreferences

@Suite struct NotificationPreferencesErrorTests {
  @Test func descriptionNamesTheModuleAndCode() {
    let error = NotificationPreferencesError(.notImplemented, "example")
    #expect(error.description == "NotificationPreferences.not_implemented: example")
  }
}
