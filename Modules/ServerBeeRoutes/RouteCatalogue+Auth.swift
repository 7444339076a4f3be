public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// Mobile sign-in and sessions (`Documentation/Protocol/Auth.md`).
  public enum Auth {
    /// `POST /api/mobile/auth/login`.
    public static let login = APIRoute<NoPath, LoginRequest, MobileTokenResponse>(
      "login", .post, "/api/mobile/auth/login", .none,
      summary: "sign in with user name, password and TOTP code")
    /// `POST /api/mobile/auth/pair`.
    public static let pair = APIRoute<NoPath, PairRedeemRequest, MobileTokenResponse>(
      "pair", .post, "/api/mobile/auth/pair", .none, summary: "sign in with a QR pairing code")
    /// `POST /api/mobile/auth/refresh`.
    public static let refresh = APIRoute<NoPath, RefreshRequest, MobileTokenResponse>(
      "refresh", .post, "/api/mobile/auth/refresh", .none,
      summary: "rotate the refresh token for new tokens")
    /// `POST /api/mobile/auth/logout`.
    public static let logout = APIRoute<NoPath, NoBody, Ignored>(
      "logout", .post, "/api/mobile/auth/logout", .mobileSession,
      summary: "end this mobile session")
    /// `POST /api/mobile/auth/revoke`.
    public static let revoke = APIRoute<NoPath, RevokeRequest, RevokeOutcome>(
      "revoke", .post, "/api/mobile/auth/revoke", .none,
      summary: "end a session with its revocation credential")
    /// `POST /api/mobile/auth/recover`.
    public static let recover = APIRoute<NoPath, RecoverRequest, RecoveryResponse>(
      "recover", .post, "/api/mobile/auth/recover", .none,
      summary: "recover a session whose refresh answer was lost")
    /// `GET /api/mobile/auth/devices`.
    public static let devices = APIRoute<NoPath, NoBody, [MobileDevice]>(
      "devices", .get, "/api/mobile/auth/devices", .member,
      summary: "the account's mobile sessions")
    /// `DELETE /api/mobile/auth/devices/{id}`.
    public static let revokeDevice = APIRoute<PathID, NoBody, String>(
      "revokeDevice", .delete, "/api/mobile/auth/devices/{id}", .member,
      summary: "end one of the account's mobile sessions")
    /// `POST /api/mobile/pair`.
    public static let createPairingCode = APIRoute<NoPath, NoBody, PairCodeResponse>(
      "createPairingCode", .post, "/api/mobile/pair", .member,
      summary: "a pairing code for another device")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      login.erased, pair.erased, refresh.erased, logout.erased, revoke.erased, recover.erased,
      devices.erased, revokeDevice.erased, createPairingCode.erased,
    ]
  }
}
