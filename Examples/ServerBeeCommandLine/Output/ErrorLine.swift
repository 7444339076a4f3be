import AuthSession
import NotificationPreferences
import SecureStore
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTransport

/// Turns any error into the one line `serverbee` prints on stderr, and its exit code.
///
/// Only the messages of the SDK's typed errors are used: they never hold a token, password, code
/// or key. Every module's error is a sentence (modules without their own wording here use the
/// error's message); an error from outside the SDK is never dumped or named by type.
enum ErrorLine {
  /// The exit code for usage errors (`EX_USAGE`).
  static let usageExitCode: Int32 = 64
  /// The exit code for every other failure.
  static let failureExitCode: Int32 = 1

  /// The exit code for an error.
  static func exitCode(for error: any Error) -> Int32 {
    if let error = error as? CommandLineError, error.code == .usage { return usageExitCode }
    return failureExitCode
  }

  /// The text after `serverbee: ` for an error, terminal-safe (messages may come from the
  /// server).
  static func text(for error: any Error) -> String { TerminalText.safe(rawText(for: error)) }

  private static func rawText(for error: any Error) -> String {
    switch error {
    case let error as CommandLineError: return error.message
    case let error as AuthSessionError: return text(for: error)
    case let failure as APIFailure: return text(for: failure)
    case let error as ServerBeeAPIError where error.code == .apiKeyRejected:
      return "the server refused the API key (HTTP 401): it was deleted, or it is not one of "
        + "this server's; create one with 'serverbee account api-keys create' and check "
        + "SERVERBEE_API_KEY or --api-key"
    case let error as ServerBeeAPIError:
      // The API client wraps its cause once (an APIFailure, a transport or AuthSession error,
      // a decoding error); the line names the cause, as it did before the client existed.
      if let cause = error.underlying { return rawText(for: cause) }
      return error.message
    case let error as ServerBeeTransportError: return "cannot reach the server: \(error.message)"
    case let error as SecureStoreError:
      return "the credential store cannot be used: \(error.message)"
    case let error as ServerBeeModelsError:
      return "the server's answer could not be read: \(error.message)"
    case let error as NotificationPreferencesError: return text(for: error)
    case is CancellationError: return "cancelled"
    case let error as any ServerBeeErrorProtocol:
      // Every other module's error (push crypto, taps, the live stream, the relay, the
      // simulator, the facade): its message is a sentence without secrets.
      return error.message
    default: return "an unexpected failure stopped the command"
    }
  }

  private static func text(for error: NotificationPreferencesError) -> String {
    switch error.code {
    case .notSignedIn: return "not signed in: run 'serverbee login' or 'serverbee pair' first"
    case .unsupportedByServer:
      return "this server has no encrypted push (HTTP 404: it may be too old)"
    case .conflict:
      return "the notification settings changed elsewhere; they were reloaded: "
        + "run the command again"
    case .insecureServer:
      return "encrypted push needs an https server (or http://127.0.0.1:PORT): "
        + "this server's URL cannot register"
    case .storageFailed:
      return "the credential store cannot be used: \(error.message)"
    case .deviceTokenUnavailable:
      return "this device has no push token: \(error.message)"
    default: return error.message
    }
  }

  private static func text(for error: AuthSessionError) -> String {
    switch error.code {
    case .notSignedIn: return "not signed in: run 'serverbee login' or 'serverbee pair' first"
    case .alreadySignedIn:
      return "already signed in: run 'serverbee logout' first"
    case .invalidCredentials: return "the user name or password is wrong"
    case .twoFactorRequired: return "this account needs a TOTP code (--totp CODE)"
    case .recoveryRequired:
      return "the server rejected this session: run 'serverbee recover'"
    case .sessionRejected:
      return
        "the server no longer accepts this session (revoked or expired): see 'serverbee status'"
    case .mustChangePassword:
      return "this account must change its password in the web UI first"
    case .rateLimited: return "too many attempts: wait a few minutes and try again"
    case .pairingCodeRejected:
      return "the pairing code is invalid, already used or expired: generate a new one"
    case .networkFailure:
      let reason = (error.underlying as? ServerBeeTransportError)?.message
      return "cannot reach the server" + (reason.map { ": \($0)" } ?? "")
    case .logoutJournalFull:
      return "too many unfinished sign-outs: connect to their servers so they can finish"
    default: return error.message
    }
  }

  /// A sentence for a server's refusal: what it means, the server's own words without their
  /// status prefix, and the status.
  private static func text(for failure: APIFailure) -> String {
    let status = "(HTTP \(failure.status))"
    let detail = failure.detail.map { ": \($0.prefix(200))" } ?? ""
    switch failure.kind {
    case .unauthorized: return "the server rejected the session \(status)"
    case .refused: return "the server refused a value sent\(detail) \(status)"
    case .notPermitted: return "this account may not do that\(detail) \(status)"
    case .mustChangePassword:
      return "this account must change its password in the web UI first \(status)"
    case .routeNotFound: return "the server does not support this (HTTP 404: it may be too old)"
    case .notFound: return "not found\(detail) \(status)"
    case .badRequest: return "the server refused the request\(detail) \(status)"
    case .invalidRequest, .twoFactorRequired: return "the server refused a value\(detail) \(status)"
    case .conflict: return "the server reported a conflict\(detail) \(status)"
    case .rateLimited: return "rate-limited by the server: wait and try again \(status)"
    case .serverError: return "the server failed\(detail) \(status)"
    case .other: return "the server answered \(failure)"
    }
  }
}
