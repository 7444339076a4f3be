public import Foundation
import PushEnvelopeCrypto
public import SecureStore
import ServerBeeAPI
import ServerBeeModels
public import ServerBeeTransport

/// Buffers a notification tap until the app is ready, then validates and loads it exactly once
/// (Protocol/Push.md §7).
///
/// The router reads the content key itself (`serverbee_active_push_content_key` in the
/// extension-shared group), takes the login from the session seam, and loads the target with a
/// `ServerBeeAPIClient` for the current server over the transport it was given (normally
/// AuthSession's `AuthorizedHTTPTransport`). Every decision is ``TapValidator``'s.
///
/// ```swift
/// let router = TapRouter(session: auth, store: store, transport: authorizedTransport)
/// // didReceive, possibly at cold start before the session is restored:
/// await router.receive(PushTap(apnsPayload: payload))
/// // once the session and stores are restored:
/// await router.markReady()
/// if let outcome = await router.consume() { present(outcome) }
/// ```
public actor TapRouter {
  /// The store key of the active push content key (Protocol/Push.md §3.7).
  public static let contentKeyName: CredentialKey = .pushContentKey

  private let session: any SessionContext
  private let store: any CredentialStore
  /// The store's caller executor: every method of the router runs on its thread.
  private let executor: CredentialStoreExecutor
  private let transport: any HTTPTransport
  private let now: @Sendable () -> Date
  private var pending: PushTap?
  private var ready = false

  /// The executor every method of the router runs on: its store's
  /// `CredentialStore/callerExecutor`, so reading the content key from a `CredentialStore` (a blocking call) never
  /// holds a thread of the cooperative pool.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// Creates a router with nothing buffered and not ready.
  /// - Parameters:
  ///   - session: The session seam.
  ///   - store: The credential store holding the content key.
  ///   - transport: A transport that authorises requests for the current login.
  ///   - now: The clock for the envelope's "not yet valid" rule.
  public init(
    session: any SessionContext, store: any CredentialStore, transport: any HTTPTransport,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.session = session
    self.store = store
    self.executor = store.callerExecutor
    self.transport = transport
    self.now = now
  }

  /// Buffers a tap; a later tap replaces one not yet consumed.
  /// - Parameter tap: The tap.
  public func receive(_ tap: PushTap) {
    pending = tap
  }

  /// Says the session and stores are restored, so ``consume()`` may handle the buffered tap.
  public func markReady() {
    ready = true
  }

  /// Whether a tap is buffered and not yet consumed.
  public var hasPendingTap: Bool { pending != nil }

  /// Takes the buffered tap (once), validates it and loads its target.
  ///
  /// Before ``markReady()`` it returns `nil` and keeps the tap. With nothing buffered (a second
  /// consume) it returns `nil`. When the login's scope (account, server, installation or login)
  /// changes during a request, its answer is discarded and the outcome is
  /// ``TapUnavailableReason/accountChanged``.
  /// - Returns: The outcome, or `nil` when there is nothing to handle yet.
  public func consume() async -> TapOutcome? {
    guard ready, let tap = pending else { return nil }
    pending = nil
    let identity = session.currentIdentity
    let key: PushContentKey?
    do {
      key = try store.value(
        PushContentKey.self, forKey: Self.contentKeyName, in: .sharedWithExtension)
    } catch {
      key = nil
    }
    switch TapValidator.target(for: tap, key: key, identity: identity, now: now()) {
    case .unavailable(let reason):
      return .unavailable(reason)
    case .load(let target):
      guard let identity else { return .unavailable(.signedOut) }
      return await load(target, identity: identity)
    }
  }

  private func load(_ target: PushTapTarget, identity: SessionIdentity) async -> TapOutcome {
    let api = ServerBeeAPIClient(server: identity.server, transport: transport)
    var answers = TapAnswers()
    while true {
      switch TapValidator.next(for: target, identity: identity, answers: answers) {
      case .finish(let outcome):
        return outcome
      case .request(let request):
        await Self.perform(request, with: api, into: &answers)
        if Task.isCancelled { return .unavailable(.cancelled) }
        guard session.currentIdentity?.scope == identity.scope else {
          return .unavailable(.accountChanged)
        }
      }
    }
  }

  private static func perform(
    _ request: TapRequest, with api: ServerBeeAPIClient, into answers: inout TapAnswers
  ) async {
    switch request {
    case .alertEvent(let key):
      answers.alertEvent = await result { try await api.alertEvent(key) }
    case .taskResults(let taskID, let runID):
      answers.taskResults = await result { try await api.taskResults(taskID: taskID, runID: runID) }
    case .currentUser:
      answers.currentUser = await result { try await api.currentUser() }
    case .server(let id):
      answers.server = await result { try await api.server(id: id) }
    case .securityEvent(let id):
      answers.securityEvent = await result { try await api.securityEvent(id: id) }
    case .currentUserRecheck:
      answers.currentUserRecheck = await result { try await api.currentUser() }
    }
  }

  private static func result<Value: Sendable>(
    _ body: () async throws -> Value
  ) async -> Result<Value, ServerBeeAPIError> {
    do {
      return .success(try await body())
    } catch let error as ServerBeeAPIError {
      return .failure(error)
    } catch {
      return .failure(ServerBeeAPIError(.transport, "the request did not complete"))
    }
  }
}
