public import ServerBeeModels
import ServerBeeTransport

/// The error domain of the ServerBeeAPI module.
public enum ServerBeeAPIDomain: ServerBeeErrorDomain {
  /// `"ServerBeeAPI"`.
  public static let name = "ServerBeeAPI"
}

/// The one public error type of ServerBeeAPI: a `ServerBeeError` (ServerBeeModels) with this
/// module's codes.
///
/// Every failure of a ``ServerBeeAPIClient`` call is wrapped once into this type, except
/// `CancellationError`, which passes through untouched. Match on the code:
///
/// ```swift
/// do {
///   let tasks = try await api.tasks()
/// } catch let error as ServerBeeAPIError where error.code == .forbidden {
///   // a member account: tasks are admin only
/// } catch let error as ServerBeeAPIError where error.code == .unauthorized {
///   // sign in again
/// }
/// ```
///
/// What each part holds:
/// - `httpStatus`: the status of the answer, when there was one.
/// - `message`: `METHOD /path: what happened`, with the server's own message
///   when it sent one. The query string, headers and request body are never included, so a
///   message never carries a token or other secret.
/// - `underlying`: the `APIFailure` (ServerBeeModels) for a non-2xx answer,
///   the `ServerBeeModelsError` for an undecodable body, or the error the transport threw (a
///   `ServerBeeTransportError`, or a decorator's own error such as AuthSession's
///   `AuthSessionError` when no session is signed in).
public typealias ServerBeeAPIError = ServerBeeError<ServerBeeAPIDomain>

extension ServerBeeError.Code where Domain == ServerBeeAPIDomain {
  /// HTTP 401: the server rejected the credential (expired, revoked or missing). With
  /// AuthSession's `AuthorizedHTTPTransport` this means the one refresh it tried did not help.
  public static let unauthorized = Self("unauthorized")
  /// HTTP 401 from the auth middleware to a client that signs with an API key
  /// (``ServerBeeAPIClient/init(server:apiKey:transport:)``): the key was deleted, or is not
  /// one of this server's. Nothing refreshes an API key: create another.
  public static let apiKeyRejected = Self("api_key_rejected")
  /// HTTP 401 **with** the JSON error envelope: a handler refused a value the request carried
  /// (a wrong two-factor code, Protocol/AppRoutes.md §2.1). The session is fine: nothing was
  /// refreshed, and nothing needs to be.
  public static let refused = Self("refused")
  /// HTTP 403: the account may not do this. Includes the **empty-body** admin-gate 403 that a
  /// member gets from tasks and alert rules (Protocol/README.md §10), and `Forbidden: …` answers
  /// such as revoking another user's device.
  public static let forbidden = Self("forbidden")
  /// HTTP 403 `MUST_CHANGE_PASSWORD`: the account must change its password in the web UI first.
  public static let mustChangePassword = Self("must_change_password")
  /// HTTP 404 with a message: the server, task, alert, event or device does not exist (or, for
  /// a `v1.` alert key, the alert moved on to a new cycle).
  public static let notFound = Self("not_found")
  /// The server does not support this call: an **empty-body** 404 (the router's answer for a
  /// route it does not have, Protocol/README.md §5), or a v1 server's answer to a v2-only request
  /// (see ``ServerBeeAPIClient`` for the exact rule).
  public static let serverTooOld = Self("server_too_old")
  /// HTTP 400: the server refused the request as malformed (a bad cursor, a bad query value).
  public static let badRequest = Self("bad_request")
  /// HTTP 409: a conflict (for example a task that is already running).
  public static let conflict = Self("conflict")
  /// HTTP 422 (or 415): a value was missing, empty or invalid.
  public static let validation = Self("validation")
  /// HTTP 429: rate-limited; try again later.
  public static let rateLimited = Self("rate_limited")
  /// HTTP 5xx: the server failed; try again later.
  public static let server = Self("server")
  /// Any other status (a 3xx, 405, 408, or a 2xx other than 200): redirects are never followed.
  public static let unexpectedStatus = Self("unexpected_status")
  /// The request was not completed: the transport (or a decorator in it) threw. The cause is in
  /// `underlying`.
  public static let transport = Self("transport")
  /// The server answered 200 with a body that could not be decoded, or with data that
  /// contradicts the request (a page that repeats its cursor).
  public static let decoding = Self("decoding")
  /// An argument was refused before anything was sent (an empty id, a negative limit).
  public static let invalidArgument = Self("invalid_argument")
}

extension ServerBeeError where Domain == ServerBeeAPIDomain {
  /// Whether the same call may succeed later without any change: `.server`, `.rateLimited`,
  /// `.decoding`, and `.transport` when the cause is a network failure
  /// (`ServerBeeTransportError`) rather than a decorator's refusal.
  public var isTransient: Bool {
    switch code {
    case .server, .rateLimited, .decoding: return true
    case .transport: return underlying is ServerBeeTransportError
    default: return false
    }
  }

  /// The server's answer behind an HTTP failure, when there was one.
  public var apiFailure: APIFailure? { underlying as? APIFailure }
}

extension ServerBeeError where Domain == ServerBeeAPIDomain {
  /// Why the server refused a blocklist entry, when this error is one of the documented 400 and
  /// 409 answers of `POST /api/firewall/blocks` (Protocol/Firewall.md §4); `nil` otherwise.
  ///
  /// ```swift
  /// catch let error as ServerBeeAPIError {
  ///   if case .guardrail(let range)? = error.firewallBlockRefusal {
  ///     print("\(range) is never blocked")
  ///   }
  /// }
  /// ```
  public var firewallBlockRefusal: FirewallBlockRefusal? { apiFailure?.firewallBlockRefusal }
}
