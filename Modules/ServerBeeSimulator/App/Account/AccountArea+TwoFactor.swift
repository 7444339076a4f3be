import ServerBeeCore
import ServerBeeModels
import ServerBeeQR
import ServerBeeTransport

/// A two-factor setup waiting for its first code.
struct PendingTwoFactor: Sendable {
  /// The base32 secret.
  var secret: String
  /// When the setup was made (nanoseconds).
  var createdAt: Int64
}

// Two-factor sign-in (Protocol/Account.md §2): status, setup with a pending secret kept 10
// minutes in memory, enable with a current code, disable with the password. The code is checked
// with TOTP (SHA-1, 6 digits, 30 s, ±1 step), as login checks it.

extension AccountArea {
  /// How long a setup stays pending: 10 minutes.
  static let twoFactorSetupLifetime: Int64 = 600 * second

  /// `GET /api/auth/2fa/status` (member): `{"enabled": bool}`.
  func twoFactorStatus(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    return Reply.data(TwoFactorStatus(enabled: caller.user.totpSecret != nil))
  }

  /// `POST /api/auth/2fa/setup` (member): a new pending secret (replacing any), its
  /// `otpauth://` URL and the URL's QR code as base64 PNG without `data:`. It does not check
  /// whether 2FA is on already.
  func setUpTwoFactor(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let secret = TOTP.encodeBase32(random(20))
    let url = Self.otpauthURL(secret: secret, username: caller.user.username)
    let png: String
    do {
      png = try QRPNGRenderer(scale: 4).base64PNG(text: url)
    } catch {
      throw APIError.plain(500, "Internal error: the QR code could not be drawn")
    }
    core.pendingTwoFactor.withLock {
      $0[caller.user.id] = PendingTwoFactor(secret: secret, createdAt: now)
    }
    return Reply.data(TwoFactorSetup(secret: secret, otpauthURL: url, qrCodePNGBase64: png))
  }

  /// `POST /api/auth/2fa/enable {code}` (member): the pending secret becomes the account's
  /// when the code is current. A wrong code is a 401 **with** the JSON envelope and keeps the
  /// pending secret (Protocol/AppRoutes.md §2.1).
  func enableTwoFactor(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let code = try context.jsonBody().string("code")
    let userID = caller.user.id
    guard let pending = core.pendingTwoFactor.withLock({ $0[userID] }) else {
      throw APIError.badRequest("No pending 2FA setup. Call /api/auth/2fa/setup first.")
    }
    guard now - pending.createdAt <= Self.twoFactorSetupLifetime else {
      core.pendingTwoFactor.withLock { $0[userID] = nil }
      throw APIError.badRequest("2FA setup expired. Please start again.")
    }
    guard TOTP.verify(code: code, secretBase32: pending.secret, unixSeconds: nowSeconds) else {
      throw APIError.unauthorized
    }
    try db.execute(
      "UPDATE users SET totp_secret = ?, updated_at = ? WHERE id = ?",
      [.text(pending.secret), .int(now), .text(userID)])
    core.pendingTwoFactor.withLock { $0[userID] = nil }
    try core.audit(caller, "2fa_enable", context)
    return Reply.data("ok")
  }

  /// `POST /api/auth/2fa/disable {password}` (member): no code needed, only the password.
  func disableTwoFactor(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse {
    guard let caller else { throw APIError.bare(401) }
    let password = try context.jsonBody().string("password")
    guard core.passwordMatches(caller.user, password) else {
      throw APIError.badRequest("Password is incorrect")
    }
    try db.execute(
      "UPDATE users SET totp_secret = NULL, updated_at = ? WHERE id = ?",
      [.int(now), .text(caller.user.id)])
    try core.audit(caller, "2fa_disable", context)
    return Reply.data("ok")
  }

  /// `otpauth://totp/ServerBee:<user>?secret=<base32>&issuer=ServerBee`: issuer `ServerBee`, the
  /// user name as the account (percent-encoded), default algorithm, digits and period left out
  /// [inferred: the upstream TOTP library's URL form].
  static func otpauthURL(secret: String, username: String) -> String {
    "otpauth://totp/ServerBee:\(percentEncoded(username))?secret=\(secret)&issuer=ServerBee"
  }

  /// RFC 3986 percent-encoding of everything but the unreserved characters.
  static func percentEncoded(_ text: String) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.append(byte)
      default:
        out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
