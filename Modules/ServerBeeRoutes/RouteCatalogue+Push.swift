public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// Push registration and settings: the legacy direct-APNs routes and the encrypted v2 routes
  /// (`Documentation/Protocol/Push.md`).
  public enum Push {
    /// `POST /api/mobile/push/register`.
    public static let legacyRegister = APIRoute<NoPath, LegacyPushRegisterRequest, Ignored>(
      "legacyRegister", .post, "/api/mobile/push/register", .mobileSession,
      summary: "register an APNs token (servers without encrypted push)")
    /// `POST /api/mobile/push/unregister`.
    public static let unregister = APIRoute<NoPath, NoBody, Ignored>(
      "unregister", .post, "/api/mobile/push/unregister", .mobileSession,
      summary: "remove this session's push registrations")
    /// `GET /api/mobile/push/settings`.
    public static let settings = APIRoute<NoPath, NoBody, PushSetupResponse>(
      "settings", .get, "/api/mobile/push/settings", .mobileSession,
      summary: "the confirmed push settings and their revision")
    /// `PUT /api/mobile/push/settings`.
    public static let updateSettings = APIRoute<NoPath, PushSettingsUpdate, PushSetupResponse>(
      "updateSettings", .put, "/api/mobile/push/settings", .mobileSession,
      summary: "change the push settings at a revision")
    /// `POST /api/mobile/push/encrypted-register`.
    public static let encryptedRegister =
      APIRoute<NoPath, EncryptedRegisterRequest, PushSetupResponse>(
        "encryptedRegister", .post, "/api/mobile/push/encrypted-register", .mobileSession,
        summary: "register a relay token with its content key")
    /// `POST /api/mobile/push/test`.
    public static let sendTest = APIRoute<NoPath, TestPushRequest, TestPushResponse>(
      "sendTest", .post, "/api/mobile/push/test", .mobileSession,
      summary: "send a test notification")
    /// `GET /api/mobile/push/test/{event_id}`.
    public static let testStatus = APIRoute<PathID, NoBody, TestPushResponse>(
      "testStatus", .get, "/api/mobile/push/test/{event_id}", .mobileSession,
      summary: "a test notification's delivery state")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      legacyRegister.erased, unregister.erased, settings.erased, updateSettings.erased,
      encryptedRegister.erased, sendTest.erased, testStatus.erased,
    ]
  }
}
