public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// The signed-in account: who it is, password, two-factor sign-in, API keys
  /// (`Documentation/Protocol/Account.md`).
  public enum Account {
    /// `GET /api/auth/me`.
    public static let currentUser = APIRoute<NoPath, NoBody, CurrentUser>(
      "currentUser", .get, "/api/auth/me", .memberUngated, summary: "the signed-in account")
    /// `PUT /api/auth/password`.
    public static let changePassword = APIRoute<NoPath, PasswordChangeRequest, String>(
      "changePassword", .put, "/api/auth/password", .member, summary: "change the password")
    /// `GET /api/auth/2fa/status`.
    public static let twoFactorStatus = APIRoute<NoPath, NoBody, TwoFactorStatus>(
      "twoFactorStatus", .get, "/api/auth/2fa/status", .member,
      summary: "whether two-factor sign-in is on")
    /// `POST /api/auth/2fa/setup`.
    public static let setUpTwoFactor = APIRoute<NoPath, NoBody, TwoFactorSetup>(
      "setUpTwoFactor", .post, "/api/auth/2fa/setup", .member,
      summary: "a pending TOTP secret")
    /// `POST /api/auth/2fa/enable`.
    public static let enableTwoFactor = APIRoute<NoPath, TwoFactorCodeRequest, String>(
      "enableTwoFactor", .post, "/api/auth/2fa/enable", .member,
      summary: "turn two-factor sign-in on with a code")
    /// `POST /api/auth/2fa/disable`.
    public static let disableTwoFactor = APIRoute<NoPath, TwoFactorDisableRequest, String>(
      "disableTwoFactor", .post, "/api/auth/2fa/disable", .member,
      summary: "turn two-factor sign-in off with the password")
    /// `GET /api/auth/api-keys`.
    public static let apiKeys = APIRoute<NoPath, NoBody, [APIKeyRecord]>(
      "apiKeys", .get, "/api/auth/api-keys", .member, summary: "the caller's API keys")
    /// `POST /api/auth/api-keys`.
    public static let createAPIKey = APIRoute<NoPath, APIKeyCreateRequest, APIKeyRecord>(
      "createAPIKey", .post, "/api/auth/api-keys", .admin,
      summary: "create an API key (its plaintext shown once)")
    /// `DELETE /api/auth/api-keys/{id}`.
    public static let deleteAPIKey = APIRoute<PathID, NoBody, String>(
      "deleteAPIKey", .delete, "/api/auth/api-keys/{id}", .member,
      summary: "delete one of the caller's API keys")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      currentUser.erased, changePassword.erased, twoFactorStatus.erased, setUpTwoFactor.erased,
      enableTwoFactor.erased, disableTwoFactor.erased, apiKeys.erased, createAPIKey.erased,
      deleteAPIKey.erased,
    ]
  }
}
