public import AuthSession
public import DeepLinkValidation
public import Foundation
public import NotificationPreferences
import RealtimeStream
public import SecureStore
public import ServerBeeAPI
public import ServerBeeModels
public import ServerBeeTransport

/// The one entry point: a signed-in ServerBee client with its store, auth, REST API and live
/// fleet wired with the live defaults.
///
/// ```swift
/// import ServerBeeKit
///
/// let client = try ServerBeeClient(home: homeDirectory, deviceName: "Status board")
/// try await client.restore()
/// _ = try await client.signIn(server: "https://monitor.example.com", username: "ada",
///                             password: password)
/// for server in try await client.api().servers() { print(server.name) }
/// let fleet = try await client.watchFleet()
/// print(try await fleet.firstSync().servers.count)
/// await fleet.stop()
/// _ = try await client.signOut()
/// ```
///
/// Everything underneath stays reachable for what the facade does not cover: ``auth`` is the
/// `AuthClient` (recovery, pending clean-ups, state changes), ``api()`` the typed REST client,
/// ``LiveFleet/stream`` the stream client, ``http`` and ``webSocket`` the transports (with the
/// configuration's TLS trust). Every seam is public: pass ``Transports`` and a
/// ``PushPlatform`` to ``init(store:configuration:transports:push:)`` (fakes in tests).
public final class ServerBeeClient: Sendable {
  /// Settings with sensible defaults.
  public struct Configuration: Sendable, Hashable {
    /// The device name shown in the server's device list.
    public var deviceName: String
    /// The total time one HTTP request may take (15 s).
    public var requestTimeout: Duration
    /// What `https` and `wss` trust, for HTTP and the live stream alike: the system store, an
    /// extra CA file for a private CA or a self-signed server, SHA-256 pins.
    public var tls: TLSTrust
    /// The `serverbee-relay` that issues this device's token when it is a local relay device
    /// (Linux, desktop), for example `http://127.0.0.1:8787`; `nil` (the default) uses the
    /// token already stored, or makes one here that a relay learns only when the device
    /// listens. See `LocalRelayDeviceTokenProvider`.
    public var localRelayURL: URL?
    /// The APNs environment of this build's device token (Apple platforms): `.sandbox` for a
    /// debug build, `.production` (the default) for TestFlight and the App Store.
    public var apnsEnvironment: PushEnvironment

    /// Creates a configuration.
    /// - Parameters:
    ///   - deviceName: The device name.
    ///   - requestTimeout: The HTTP request timeout; 15 s by default.
    ///   - tls: What TLS connections trust; the system store by default.
    ///   - localRelayURL: The relay that issues the local device token; none by default.
    ///   - apnsEnvironment: The APNs environment; production by default.
    public init(
      deviceName: String, requestTimeout: Duration = .seconds(15), tls: TLSTrust = TLSTrust(),
      localRelayURL: URL? = nil, apnsEnvironment: PushEnvironment = .production
    ) {
      self.deviceName = deviceName
      self.requestTimeout = requestTimeout
      self.tls = tls
      self.localRelayURL = localRelayURL
      self.apnsEnvironment = apnsEnvironment
    }
  }

  /// The auth client: login, pairing, refresh, logout, recovery, state changes.
  public let auth: AuthClient
  /// HTTP without the session's token (what ``auth`` sends its requests over).
  public let http: any HTTPTransport
  /// The WebSocket transport the live stream connects over, under the same TLS trust as
  /// ``http`` (both come from one ``Transports``): use it for any other stream of this client,
  /// so a private CA or a pin configured once holds for every connection.
  ///
  /// ```swift
  /// let pushes = LocalRelayDeviceStream(
  ///   relay: relayURL, deviceToken: try await client.pushDeviceToken(),
  ///   transport: client.webSocket)
  /// ```
  public let webSocket: any WebSocketTransport
  /// Server-confirmed notification settings, encrypted registration and the content key of this
  /// login (call `reconcile()` at launch, foreground and network return).
  public let notifications: NotificationPreferencesClient
  /// Notification taps: hand it each tapped payload, call `markReady()` once restored, then
  /// `consume()` for the destination.
  public let taps: TapRouter
  /// The credential store (app-private and extension-shared groups).
  public let store: any CredentialStore
  /// The relay a local relay device listens to when none is named (`Configuration.localRelayURL`).
  let localRelayURL: URL?
  /// Where the app delegate's APNs token goes, when push is APNs.
  private let remoteTokens: RemoteNotificationsDeviceTokenProvider?
  /// This device's push token, as the push platform gives it.
  private let deviceTokens: any PushDeviceTokenProvider

  #if os(Linux)
    /// A client whose credentials live in the encrypted store in `home` (created when missing,
    /// key file `0600`). Linux only, like `EncryptedSQLiteCredentialStore` (OpenSSL); on Apple
    /// platforms pass a `KeychainCredentialStore` to ``init(store:configuration:transports:push:)``.
    /// - Parameters:
    ///   - home: The state directory, for example `~/.serverbee`.
    ///   - deviceName: The device name shown in the server's device list.
    /// - Throws: `SecureStoreError` when the store cannot be opened.
    public convenience init(home: URL, deviceName: String) throws {
      self.init(
        store: try EncryptedSQLiteCredentialStore(directory: home),
        configuration: Configuration(deviceName: deviceName))
    }
  #endif

  /// A client over any credential store (the Keychain store on Apple platforms), with the
  /// platform's transports and push seams unless you pass your own.
  ///
  /// On Linux HTTP and the live stream run on the native stack under `Configuration.tls`, and
  /// the device is a local device of a `serverbee-relay` (``PushPlatform/localRelayDevice``).
  /// On Apple platforms they are URLSession, the `UNUserNotificationCenter` permission and the
  /// APNs token: hand the app delegate's callbacks over (the four lines the app needs):
  ///
  /// ```swift
  /// func application(_: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken token: Data) {
  ///   client.deliverDeviceToken(token)
  /// }
  /// func application(_: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error) {
  ///   client.failDeviceTokenRegistration(error)
  /// }
  /// ```
  /// - Parameters:
  ///   - store: Where credentials live.
  ///   - configuration: The settings.
  ///   - transports: HTTP and WebSocket; ``Transports/platformDefault(_:)`` when `nil`.
  ///   - push: The permission and token seams; ``PushPlatform/platformDefault(_:)`` when `nil`.
  public init(
    store: any CredentialStore, configuration: Configuration, transports: Transports? = nil,
    push: PushPlatform? = nil
  ) {
    let transports = transports ?? .platformDefault(configuration)
    let push = push ?? .platformDefault(configuration)
    let http = transports.http
    self.http = http
    self.webSocket = transports.webSocket
    self.store = store
    self.localRelayURL = configuration.localRelayURL
    self.remoteTokens = push.remoteTokens
    // What a login change must remove (the content key, the registration record, the test in
    // flight, the unconfirmed choice) goes in the same store write as the login itself, so a
    // sign-out, another account or a revoked session never leaves them behind.
    let auth = AuthClient(
      configuration: .init(
        deviceName: configuration.deviceName,
        loginScopedValues: NotificationPreferencesClient.loginScopedValues),
      store: store, transport: http)
    self.auth = auth
    let authorized = AuthorizedHTTPTransport(wrapping: http, client: auth)
    let (authorization, deviceTokens) = push.make(store, configuration, http)
    self.deviceTokens = deviceTokens
    notifications = NotificationPreferencesClient(
      transport: authorized, session: auth, store: store, authorization: authorization,
      deviceTokens: deviceTokens)
    taps = TapRouter(session: auth, store: store, transport: authorized)
  }

  /// This device's push token, from the client's push platform: for a local relay device the
  /// token its relay issued (what `LocalRelayDeviceStream` listens with), on Apple platforms the
  /// APNs token (it asks the system and waits for ``deliverDeviceToken(_:)``).
  ///
  /// ```swift
  /// let token = try await client.pushDeviceToken()
  /// let pushes = LocalRelayDeviceStream(
  ///   relay: relayURL, deviceToken: token, transport: client.webSocket)
  /// ```
  /// - Returns: The token and its environment (its description never shows the token).
  /// - Throws: The platform's error when it gives no token.
  public func pushDeviceToken() async throws -> PushDeviceToken {
    try await deviceTokens.deviceToken()
  }

  /// Hands the APNs token from the app delegate's
  /// `didRegisterForRemoteNotificationsWithDeviceToken` to the waiting registration. Does
  /// nothing when the client's push platform is not ``PushPlatform/remoteNotifications(_:authorization:)``.
  /// - Parameter token: The token bytes.
  public func deliverDeviceToken(_ token: Data) { remoteTokens?.deliver(token) }

  /// Hands the app delegate's `didFailToRegisterForRemoteNotificationsWithError` to the waiting
  /// registration (it fails with that error and shows in `notifications.state`).
  /// - Parameter error: The platform's error.
  public func failDeviceTokenRegistration(_ error: any Error) { remoteTokens?.fail(error) }

  /// A test-push tracker for this login (see ``notifications`` for when a test may be sent).
  /// - Parameter maximumFailedReads: Status reads in a row that may fail to reach the server
  ///   before following ends with that failure; `nil` (the default) keeps reading until a
  ///   final outcome (see `TestPushTracker`).
  /// - Returns: A tracker over the signed-in session.
  public func testPushes(maximumFailedReads: Int? = nil) -> TestPushTracker {
    TestPushTracker(
      transport: authorizedHTTP, session: auth, store: store,
      maximumFailedReads: maximumFailedReads)
  }

  /// Whether this installation's user read the push privacy notice (`PushPrivacyNotice`):
  /// ask `isAcknowledged()` before the first
  /// `notifications.enable(_:)`, show the notice when it says `false`, and call
  /// `acknowledge()` once the user read it. The record belongs to
  /// the installation (it survives sign-out and another account), in this client's store.
  ///
  /// ```swift
  /// if try await !client.pushPrivacyNotice.isAcknowledged() {
  ///   guard await askUser(PushPrivacyNotice.current.text(in: .english)) else { return }
  ///   try await client.pushPrivacyNotice.acknowledge()
  /// }
  /// try await client.notifications.enable(PushPreferences(enabled: true, alerts: true))
  /// ```
  public var pushPrivacyNotice: PushPrivacyNoticeRecord { PushPrivacyNoticeRecord(store: store) }

  /// The session state now.
  public var state: SessionState { auth.currentState }

  /// Reads the stored login, then removes what interrupted sign-ins left on the server and
  /// finishes queued sign-outs while their servers are reachable (best effort: failures stay
  /// queued). ``restoreWithReport()`` says what the two passes did.
  /// - Returns: The state after restoring.
  /// - Throws: `AuthSessionError` when the store cannot be read.
  @discardableResult
  public func restore() async throws -> SessionState {
    try await restoreWithReport().state
  }

  /// Signs in with a user name and password (and a TOTP code when the account has 2FA).
  /// - Parameters:
  ///   - server: The server URL, for example `https://monitor.example.com`.
  ///   - username: The user name.
  ///   - password: The password (never stored).
  ///   - totpCode: The 6-digit code, if the account has 2FA.
  /// - Returns: Signed in, or "2FA required".
  /// - Throws: `AuthSessionError`.
  public func signIn(
    server: String, username: String, password: String, totpCode: String? = nil
  ) async throws -> LoginOutcome {
    try await auth.login(
      server: server, username: username, password: password, totpCode: totpCode)
  }

  /// Pairs with the text of a scanned ServerBee QR code.
  /// - Parameter scannedPayload: The QR text (`{"type":"serverbee_pair",…}`).
  /// - Returns: The new login's identity.
  /// - Throws: `AuthSessionError`.
  @discardableResult
  public func pair(scannedPayload: String) async throws -> SessionIdentity {
    try await auth.pair(scannedPayload: scannedPayload)
  }

  /// The typed REST client for the signed-in server; every request carries the session's
  /// token and is retried once after a refresh on 401.
  /// - Returns: The client.
  /// - Throws: ``ServerBeeClientError`` with `.notSignedIn`.
  public func api() throws -> ServerBeeAPIClient {
    ServerBeeAPIClient(server: try signedInIdentity().server, transport: authorizedHTTP)
  }

  /// HTTP with the session's bearer token, for routes the typed client does not cover.
  public var authorizedHTTP: AuthorizedHTTPTransport {
    AuthorizedHTTPTransport(wrapping: http, client: auth)
  }

  /// Fetches the server configuration, starts the live stream and merges the configuration in
  /// (names and totals before the first update).
  /// - Returns: The started fleet; call ``LiveFleet/stop()`` when done.
  /// - Throws: ``ServerBeeClientError`` with `.notSignedIn`, or `ServerBeeAPIError` from the
  ///   configuration request (which also validates the session).
  public func watchFleet() async throws -> LiveFleet {
    let server = try signedInIdentity().server
    return try await LiveFleet.start(
      api: try api(),
      stream: MetricsStreamClient(server: server, tokens: auth, transport: webSocket))
  }

  /// Signs out with revocation; works offline (the revocation is queued and finished by a
  /// later ``restore()``).
  /// - Returns: What happened on the server.
  /// - Throws: `AuthSessionError`.
  @discardableResult
  public func signOut() async throws -> LogoutOutcome {
    try await auth.logout()
  }

  private func signedInIdentity() throws -> SessionIdentity {
    guard case .signedIn(let identity) = auth.currentState else {
      throw ServerBeeClientError(
        .notSignedIn,
        auth.currentState.identity == nil
          ? "no login is stored: sign in or pair first"
          : "the server rejected this login: recover it first")
    }
    return identity
  }
}
