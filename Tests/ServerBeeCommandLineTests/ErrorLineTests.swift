import AuthSession
import DeepLinkValidation
import Foundation
import NotificationPreferences
import PushEnvelopeCrypto
import RealtimeStream
import SecureStore
import ServerBeeAPI
import ServerBeeKit
import ServerBeeModels
import ServerBeeRelay
import ServerBeeSimulator
import ServerBeeTransport
import Testing

@testable import ServerBeeCommandLine

@Suite struct ErrorLineTests {
  /// An error whose own description holds a secret; the line must never show it.
  struct LeakyError: Error, CustomStringConvertible {
    var description: String { "token=sb_secret_token" }
  }

  @Test func usageErrorsExit64AndEverythingElseExits1() {
    #expect(ErrorLine.exitCode(for: CommandLineError(.usage, "x")) == 64)
    #expect(ErrorLine.exitCode(for: CommandLineError(.notSignedIn, "x")) == 1)
    #expect(ErrorLine.exitCode(for: AuthSessionError(.invalidCredentials, "x")) == 1)
    #expect(ErrorLine.exitCode(for: LeakyError()) == 1)
  }

  @Test func authErrorsBecomeSentencesWithTheNextStep() {
    #expect(
      ErrorLine.text(for: AuthSessionError(.invalidCredentials, "401"))
        == "the user name or password is wrong")
    #expect(
      ErrorLine.text(for: AuthSessionError(.notSignedIn, "no session"))
        == "not signed in: run 'serverbee login' or 'serverbee pair' first")
    #expect(
      ErrorLine.text(for: AuthSessionError(.pairingCodeRejected, "400"))
        == "the pairing code is invalid, already used or expired: generate a new one")
    #expect(
      ErrorLine.text(for: AuthSessionError(.recoveryRequired, "rejected"))
        == "the server rejected this session: run 'serverbee recover'")
    #expect(
      ErrorLine.text(for: AuthSessionError(.sessionRejected, "refresh: 401"))
        == "the server no longer accepts this session (revoked or expired): see 'serverbee status'")
  }

  @Test func networkFailuresNameTheTransportReason() {
    let transport = ServerBeeTransportError(
      .connectionRefused, "the server refused the connection")
    let error = AuthSessionError(
      .networkFailure, "/api/mobile/auth/login: the server could not be reached",
      underlying: transport)
    #expect(
      ErrorLine.text(for: error) == "cannot reach the server: the server refused the connection")
    #expect(
      ErrorLine.text(for: transport) == "cannot reach the server: the server refused the connection"
    )
  }

  @Test func apiFailuresSayWhatTheStatusMeans() {
    #expect(
      ErrorLine.text(for: APIFailure(status: 401, body: Data()))
        == "the server rejected the session (HTTP 401)")
    #expect(
      ErrorLine.text(for: APIFailure(status: 404, body: Data()))
        == "the server does not support this (HTTP 404: it may be too old)")
    let body = Data(#"{"error":{"code":"INTERNAL_ERROR","message":"database down"}}"#.utf8)
    #expect(
      ErrorLine.text(for: APIFailure(status: 500, body: body))
        == "the server failed: database down (HTTP 500)")
  }

  /// A handler's refusal reads as a sentence: what it means, the server's words without their
  /// status prefix, then the status.
  @Test(arguments: [
    (
      422, "VALIDATION_ERROR", "Validation error: name is required",
      "the server refused a value: name is required (HTTP 422)"
    ),
    (
      400, "BAD_REQUEST", "Bad request: invalid cursor",
      "the server refused the request: invalid cursor (HTTP 400)"
    ),
    (
      409, "CONFLICT", "Conflict: Group name already exists",
      "the server reported a conflict: Group name already exists (HTTP 409)"
    ),
    (
      404, "NOT_FOUND", "Not found: Server s1 not found",
      "not found: Server s1 not found (HTTP 404)"
    ),
    (
      401, "UNAUTHORIZED", "Unauthorized",
      "the server refused a value sent: Unauthorized (HTTP 401)"
    ),
  ])
  func refusalsReadAsSentences(_ status: Int, _ code: String, _ message: String, _ line: String) {
    let body = Data(#"{"error":{"code":"\#(code)","message":"\#(message)"}}"#.utf8)
    #expect(ErrorLine.text(for: APIFailure(status: status, body: body)) == line)
  }

  @Test func aRefusedAPIKeySaysWhatToDo() {
    let error = ServerBeeAPIError(
      .apiKeyRejected, "GET /api/servers: the server refused the API key", httpStatus: 401,
      underlying: APIFailure(status: 401, body: Data()))
    #expect(ErrorLine.text(for: error).hasPrefix("the server refused the API key (HTTP 401)"))
    #expect(ErrorLine.text(for: error).contains("serverbee account api-keys create"))
  }

  @Test func apiClientErrorsReadAsTheirCause() {
    let failure = APIFailure(status: 403, body: Data())
    #expect(
      ErrorLine.text(for: ServerBeeAPIError(.forbidden, "GET /api/tasks", underlying: failure))
        == "this account may not do that (HTTP 403)")
    let transport = ServerBeeTransportError(.connectionRefused, "the server refused the connection")
    #expect(
      ErrorLine.text(for: ServerBeeAPIError(.transport, "GET /api/servers", underlying: transport))
        == "cannot reach the server: the server refused the connection")
    let auth = AuthSessionError(.sessionRejected, "refresh: 401")
    #expect(
      ErrorLine.text(for: ServerBeeAPIError(.transport, "GET /api/servers", underlying: auth))
        == "the server no longer accepts this session (revoked or expired): see 'serverbee status'")
    #expect(
      ErrorLine.text(for: ServerBeeAPIError(.invalidArgument, "the device id must not be empty"))
        == "the device id must not be empty")
  }

  @Test func storeAndDecodingErrorsSayWhichPartFailed() {
    #expect(
      ErrorLine.text(for: SecureStoreError(.readOnly, "the store is read-only"))
        == "the credential store cannot be used: the store is read-only")
    #expect(
      ErrorLine.text(for: ServerBeeModelsError(.missingField, "missing field 'data.id'"))
        == "the server's answer could not be read: missing field 'data.id'")
  }

  @Test func unknownErrorsAreASentenceNeverATypeNameOrADump() {
    let text = ErrorLine.text(for: LeakyError())
    #expect(text == "an unexpected failure stopped the command")
    #expect(!text.contains("sb_secret_token") && !text.contains("LeakyError"))
  }

  @Test func everyModulesErrorIsASentenceWithoutATypeName() {
    let errors: [any Error] = [
      NotificationPreferencesError(.transportFailed, "the server could not be reached: refused"),
      NotificationPreferencesError(.insecureServer, "encrypted push needs an https server"),
      NotificationPreferencesError(.conflict, "Conflict: reload"),
      NotificationPreferencesError(.notPermitted, "only admins can receive security notifications"),
      PushEnvelopeCryptoError(.tooLarge, "the payload exceeds 8192 bytes"),
      DeepLinkValidationError(.notImplemented, "nothing to open"),
      RealtimeStreamError(.notImplemented, "the live stream is not connected"),
      ServerBeeClientError(.notSignedIn, "no login is stored: sign in or pair first"),
      ServerBeeRelayError(.listenFailed, "the relay port is in use"),
      ServerBeeSimulatorError(.listenFailed, "the simulator port is in use"),
      SecureStoreError(.diskFull, "the disk is full"),
      ServerBeeTransportError(.connectionRefused, "connection refused"),
    ]
    for error in errors {
      let text = ErrorLine.text(for: error)
      #expect(!text.isEmpty)
      #expect(!text.contains("ServerBeeError") && !text.contains("Domain"), "\(text)")
      #expect(!text.contains("unexpected"), "\(text)")
      #expect(ErrorLine.exitCode(for: error) == 1)
    }
    #expect(
      ErrorLine.text(
        for: NotificationPreferencesError(
          .transportFailed,
          "the server could not "
            + "be reached: refused")) == "the server could not be reached: refused")
  }
}
