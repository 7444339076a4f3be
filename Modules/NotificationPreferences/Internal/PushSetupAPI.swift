import ServerBeeModels
import ServerBeeRoutes
import ServerBeeTransport

/// The push setup routes over any transport, sent through the one request path
/// (ServerBeeRoutes' `RouteClient`), with the answers mapped to
/// ``NotificationPreferencesError`` once, here.
struct PushSetupAPI: Sendable {
  let transport: any HTTPTransport

  func settings(server: ServerURL) async throws -> PushSetupResponse {
    try await send(RouteCatalogue.Push.settings, NoPath(), body: NoBody(), server: server)
  }

  func put(_ update: PushSettingsUpdate, server: ServerURL) async throws -> PushSetupResponse {
    try await send(RouteCatalogue.Push.updateSettings, NoPath(), body: update, server: server)
  }

  func register(_ request: EncryptedRegisterRequest, server: ServerURL) async throws
    -> PushSetupResponse
  {
    try await send(
      RouteCatalogue.Push.encryptedRegister, NoPath(), body: request, server: server)
  }

  func sendTest(_ request: TestPushRequest, server: ServerURL) async throws -> TestPushResponse {
    try await send(RouteCatalogue.Push.sendTest, NoPath(), body: request, server: server)
  }

  func testStatus(eventID: String, server: ServerURL) async throws -> TestPushResponse {
    try await send(
      RouteCatalogue.Push.testStatus, PathID(eventID.lowercased()), body: NoBody(),
      server: server)
  }

  /// The legacy registration of servers without the encrypted push routes: `"ok"`.
  func legacyRegister(deviceToken: String, server: ServerURL) async throws {
    _ = try await send(
      RouteCatalogue.Push.legacyRegister, NoPath(),
      body: LegacyPushRegisterRequest(deviceToken: deviceToken), server: server)
  }

  private func send<Path, Request, Response>(
    _ route: APIRoute<Path, Request, Response>, _ path: Path, body: Request, server: ServerURL
  ) async throws -> Response {
    do {
      return try await RouteClient(server: server, transport: transport)
        .send(route, path, body: body)
    } catch let error as ServerBeeRoutesError {
      throw Self.error(for: error)
    }
  }

  static func error(for error: ServerBeeRoutesError) -> NotificationPreferencesError {
    switch error.code {
    case .rejected:
      if let failure = error.failure { return Self.error(for: failure) }
    case .transport:
      if let own = error.underlying as? NotificationPreferencesError { return own }
      let reason = (error.underlying as? any ServerBeeErrorProtocol).map { ": \($0.message)" }
      return NotificationPreferencesError(
        .transportFailed, "the server could not be reached\(reason ?? "")",
        underlying: error.underlying)
    case .invalidArgument:
      return NotificationPreferencesError(.invalidRequest, "the request could not be encoded")
    default: break
    }
    return NotificationPreferencesError(
      .serverError, "the server's answer could not be read", httpStatus: error.httpStatus)
  }

  static func error(for failure: APIFailure) -> NotificationPreferencesError {
    let message = failure.message.map { String($0.prefix(200)) } ?? "HTTP \(failure.status)"
    let code: NotificationPreferencesError.Code
    switch failure.kind {
    case .routeNotFound: code = .unsupportedByServer
    case .conflict: code = .conflict
    case .notPermitted, .mustChangePassword: code = .notPermitted
    case .unauthorized, .refused: code = .unauthorized
    case .badRequest, .invalidRequest, .twoFactorRequired: code = .invalidRequest
    case .notFound: code = .testNotFound
    default: code = .serverError
    }
    let text = code == .unsupportedByServer ? "this server has no encrypted push setup" : message
    return NotificationPreferencesError(code, text, httpStatus: failure.status)
  }
}
