public import Foundation
public import PushEnvelopeCrypto
public import ServerBeeAPI
public import ServerBeeModels
public import ServerBeeTransport

/// One request the loader must make next for a tap target, always with the current API.
public enum TapRequest: Hashable, Sendable {
  /// `GET /api/alert-events/{alert_key}`.
  case alertEvent(AlertKey)
  /// `GET /api/tasks/{task_id}/results?run_id=…`.
  case taskResults(taskID: String, runID: String)
  /// `GET /api/auth/me`, before reading a security resource.
  case currentUser
  /// `GET /api/servers/{server_id}`.
  case server(id: String)
  /// `GET /api/security/events/{event_id}`.
  case securityEvent(id: String)
  /// `GET /api/auth/me` again, after the security event was read.
  case currentUserRecheck
}

/// The answers loaded so far for one tap target: `nil` means not asked yet.
public struct TapAnswers: Sendable {
  /// The answer to ``TapRequest/alertEvent(_:)``.
  public var alertEvent: Result<AlertEventDetail, ServerBeeAPIError>?
  /// The answer to ``TapRequest/taskResults(taskID:runID:)``.
  public var taskResults: Result<[TaskResult], ServerBeeAPIError>?
  /// The answer to ``TapRequest/currentUser``.
  public var currentUser: Result<CurrentUser, ServerBeeAPIError>?
  /// The answer to ``TapRequest/server(id:)``.
  public var server: Result<ServerResponse, ServerBeeAPIError>?
  /// The answer to ``TapRequest/securityEvent(id:)``.
  public var securityEvent: Result<SecurityEvent, ServerBeeAPIError>?
  /// The answer to ``TapRequest/currentUserRecheck``.
  public var currentUserRecheck: Result<CurrentUser, ServerBeeAPIError>?

  /// No answers yet.
  public init() {}
}

/// The result of the first, offline step: a target to load, or why there is none.
public enum TapTargetDecision: Hashable, Sendable {
  /// Load this target with the current API.
  case load(PushTapTarget)
  /// Do not navigate (or show the reason's fallback).
  case unavailable(TapUnavailableReason)
}

/// What to do next for a tap target.
public enum TapStep: Sendable, Hashable {
  /// Make this request and record its answer.
  case request(TapRequest)
  /// Done: open the destination, or show the fallback.
  case finish(TapOutcome)
}

/// The pure decisions of the tap pipeline (Protocol/Push.md §7): no I/O, no clock of its own.
///
/// 1. ``target(for:key:identity:now:)``: identity first, then re-decryption with
///    `PushOpenPurpose.tap`, gives the target to load or a ``TapUnavailableReason``.
/// 2. ``next(for:identity:answers:)``: from the answers loaded so far, the next request or the
///    final ``TapOutcome``.
///
/// ```swift
/// let decision = TapValidator.target(
///   for: tap, key: storedKey, identity: session.currentIdentity, now: Date())
/// switch decision {
/// case .unavailable(let reason): show(reason.fallback)
/// case .load(let target): var answers = TapAnswers(); … TapValidator.next(for: target, …)
/// }
/// ```
public enum TapValidator {
  /// Checks a tap against the stored key and the current login, then re-decrypts it.
  ///
  /// The key must exist and match the login's scope, server URL, user and installation, in that
  /// order. The envelope is then opened with `PushOpenPurpose.tap`: every rule of Protocol/Push.md
  /// §3.8 except expiry, so an expired notification is still validated in full (the deadline grants
  /// no access; the server still decides). Legacy-only callbacks never give a target.
  /// - Parameters:
  ///   - tap: The buffered tap.
  ///   - key: The stored content key, if any.
  ///   - identity: The current login, or `nil` when signed out.
  ///   - now: The current time (for the "not yet valid" rule).
  /// - Returns: The target to load, or why there is none.
  public static func target(
    for tap: PushTap, key: PushContentKey?, identity: SessionIdentity?, now: Date
  ) -> TapTargetDecision {
    let envelope: PushEnvelope
    switch tap {
    case .envelope(let value): envelope = value
    case .malformed: return .unavailable(.malformedEnvelope)
    case .legacyOnly: return .unavailable(.legacyOnly)
    case .empty: return .unavailable(.noEnvelope)
    }
    guard let identity else { return .unavailable(.signedOut) }
    guard let key else { return .unavailable(.noKey) }
    if let mismatch = identityMismatch(key: key, identity: identity) {
      return .unavailable(mismatch)
    }
    do {
      let content = try PushEnvelopeOpener(now: { now }).open(envelope, with: key, for: .tap)
      return .load(content.tapTarget)
    } catch let error as PushEnvelopeCryptoError {
      return .unavailable(.decryptFailed(error.code))
    } catch {
      return .unavailable(.decryptFailed(.malformedEnvelope))
    }
  }

  /// Whether a stored key belongs to the login: `nil` when it does, else the first mismatch
  /// (scope, server URL, user, installation).
  /// - Parameters:
  ///   - key: The stored key.
  ///   - identity: The current login.
  /// - Returns: The mismatch, or `nil`.
  public static func identityMismatch(key: PushContentKey, identity: SessionIdentity)
    -> TapUnavailableReason?
  {
    if key.scope != identity.scope { return .otherScope }
    if key.deploymentID != identity.server.url.absoluteString { return .otherServer }
    if key.userID != identity.user.id { return .otherUser }
    if key.installationID != identity.installationID { return .otherInstallation }
    return nil
  }

  /// The next step for a target, from the answers loaded so far.
  ///
  /// - alert: the detail by its key; any failure, or a detail for another key, rule or server
  ///   (a re-armed cycle never opens under the old key) → ``TapUnavailableReason/alertNotFound``.
  /// - task run: admin only; a 200 whose every row has the target's task and run id, else
  ///   ``TapUnavailableReason/taskRunUnavailable``.
  /// - security: admin only; `me` (same user, admin) → server (same id) → event (same id and
  ///   server) → `me` again (same user, still admin); else unavailable.
  /// - test: the home screen.
  ///
  /// The caller also discards everything when the login changed while loading
  /// (``TapUnavailableReason/accountChanged``).
  /// - Parameters:
  ///   - target: The validated target.
  ///   - identity: The login the tap was validated for.
  ///   - answers: The answers so far.
  /// - Returns: The next request, or the outcome.
  public static func next(
    for target: PushTapTarget, identity: SessionIdentity, answers: TapAnswers
  ) -> TapStep {
    switch target {
    case .home:
      return .finish(.open(.home))
    case .alertDetail(let key):
      return alertStep(key: key, answers: answers)
    case .taskRun(let taskID, let runID):
      return taskStep(taskID: taskID, runID: runID, identity: identity, answers: answers)
    case .securityEvent(let serverID, let eventID):
      return securityStep(
        serverID: serverID, eventID: eventID, identity: identity, answers: answers)
    }
  }

  private static func alertStep(key: AlertKey, answers: TapAnswers) -> TapStep {
    guard let answer = answers.alertEvent else { return .request(.alertEvent(key)) }
    guard case .success(let detail) = answer, detail.alertKey == key.text,
      detail.ruleID == key.ruleID, detail.serverID == key.serverID
    else { return .finish(.unavailable(.alertNotFound)) }
    return .finish(.open(.alertDetail(detail)))
  }

  private static func taskStep(
    taskID: String, runID: String, identity: SessionIdentity, answers: TapAnswers
  ) -> TapStep {
    guard identity.user.role == .admin else { return .finish(.unavailable(.notAdmin)) }
    guard let answer = answers.taskResults else {
      return .request(.taskResults(taskID: taskID, runID: runID))
    }
    guard case .success(let rows) = answer,
      rows.allSatisfy({ $0.runID == runID && $0.taskID == taskID })
    else { return .finish(.unavailable(.taskRunUnavailable)) }
    return .finish(.open(.taskRunResults(taskID: taskID, runID: runID, results: rows)))
  }

  private static func securityStep(
    serverID: String, eventID: String, identity: SessionIdentity, answers: TapAnswers
  ) -> TapStep {
    guard identity.user.role == .admin else { return .finish(.unavailable(.notAdmin)) }
    guard let me = answers.currentUser else { return .request(.currentUser) }
    guard case .success(let user) = me else {
      return .finish(.unavailable(.securityEventUnavailable))
    }
    guard isSameAdmin(user, identity) else { return .finish(.unavailable(.notAdmin)) }
    guard let server = answers.server else { return .request(.server(id: serverID)) }
    guard case .success(let loadedServer) = server, loadedServer.id == serverID else {
      return .finish(.unavailable(.securityEventUnavailable))
    }
    guard let event = answers.securityEvent else { return .request(.securityEvent(id: eventID)) }
    guard case .success(let loadedEvent) = event, loadedEvent.id == eventID,
      loadedEvent.serverID == serverID
    else { return .finish(.unavailable(.securityEventUnavailable)) }
    guard let recheck = answers.currentUserRecheck else { return .request(.currentUserRecheck) }
    guard case .success(let userAgain) = recheck else {
      return .finish(.unavailable(.securityEventUnavailable))
    }
    guard isSameAdmin(userAgain, identity) else { return .finish(.unavailable(.notAdmin)) }
    return .finish(.open(.securityEvent(loadedEvent)))
  }

  private static func isSameAdmin(_ user: CurrentUser, _ identity: SessionIdentity) -> Bool {
    user.userID == identity.user.id && user.role == .admin
  }
}
