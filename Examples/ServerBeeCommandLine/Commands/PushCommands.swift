import Foundation
import NotificationPreferences
import PushEnvelopeCrypto
import SecureStore
import ServerBeeKit
import ServerBeeModels
import ServerBeeSocketTransport
import ServerBeeTransport

/// `serverbee push listen --relay URL`: this installation as a local device of a
/// `serverbee-relay`. Receives the encrypted pushes of its ServerBee server, decrypts each with
/// the content key in the store (the extension-shared group, as a notification extension
/// would) and prints its notification.
enum PushCommands {
  static func run(_ context: CommandContext) async throws {
    switch context.arguments.positionals.first {
    case "listen": try await listen(context)
    case "decrypt": try await decrypt(context)
    default:
      throw CommandLineError(
        .usage, "use 'serverbee push listen --relay URL' or 'serverbee push decrypt FILE|-'")
    }
  }

  /// `push decrypt FILE|-`: the notification-extension step alone. An APNs payload in, the
  /// rendered notification out, using only the extension-shared key; any failure shows the
  /// generic text, as the extension does, then fails the command with the reason.
  private static func decrypt(_ context: CommandContext) async throws {
    guard context.arguments.positionals.count == 2 else {
      throw CommandLineError(.usage, "use 'serverbee push decrypt FILE' (or - for stdin)")
    }
    let payload = try PayloadInput.read(context.arguments.positionals[1])
    let store = try EncryptedSQLiteCredentialStore(directory: context.home)
    let result = NotificationExtensionStep(store: store, language: try language(context))
      .process(apnsPayload: payload)
    print(result.content, result.notification, console: context.console)
    // The extension shows the fallback text; the command also says why, and fails.
    if let failure = result.failure {
      throw CommandLineError(.localFailure, "the payload did not open: \(failure)")
    }
  }

  /// The notification-extension step (the SDK's `NotificationExtensionStep`): the rendered
  /// notification, and the validated content when the payload opened.
  private static func show(
    _ payload: Data, store: any CredentialStore, language: PushNotificationLanguage
  ) -> (ValidatedPushContent?, RenderedPushNotification) {
    let result = NotificationExtensionStep(store: store, language: language)
      .process(apnsPayload: payload)
    return (result.content, result.notification)
  }

  /// Subscribes this installation (its local relay device token from the store) to a relay's
  /// device stream; every message is one APNs payload.
  /// - Parameters:
  ///   - relay: The relay's `http(s)` base URL, already checked.
  ///   - store: The credential store holding the device token.
  /// - Returns: The open stream.
  /// - Throws: ``CommandLineError`` for an unusable URL, or the transport's error.
  static func deviceStream(relay: URLComponents, store: any CredentialStore) async throws
    -> any WebSocketConnection
  {
    let token = try await LocalRelayDeviceTokenProvider(store: store).deviceToken()
    var components = relay
    components.scheme = components.scheme == "https" ? "wss" : "ws"
    components.path = "/v1/devices/stream"
    guard let streamURL = components.url else {
      throw CommandLineError(.usage, "the relay URL is not usable")
    }
    return try await SocketWebSocketTransport().connect(
      to: streamURL,
      headers: [
        "X-ServerBee-Device-Token": token.hex,
        "X-ServerBee-Environment": token.environment.rawValue,
      ])
  }

  private static func print(
    _ opened: ValidatedPushContent?, _ notification: RenderedPushNotification, console: Console
  ) {
    if console.json {
      let object: [String: String?] = [
        "event_id": opened?.content.eventID, "kind": opened?.content.kind.rawValue,
        "title": notification.title, "body": notification.body,
      ]
      if let data = try? WireJSON.encode(object.compactMapValues { $0 }) { console.json(data) }
    } else {
      console.line(TerminalText.safe("\(notification.title): \(notification.body)"))
    }
  }

  private static func listen(_ context: CommandContext) async throws {
    guard let relayText = context.arguments.values["relay"],
      let components = URLComponents(string: relayText),
      components.scheme == "http" || components.scheme == "https", components.host != nil
    else { throw CommandLineError(.usage, "--relay needs the relay's http(s) URL") }
    var count: Int?
    if let text = context.arguments.values["count"] {
      guard let value = Int(text), value > 0 else {
        throw CommandLineError(.usage, "--count expects a positive number, got '\(text)'")
      }
      count = value
    }
    let language = try language(context)
    let session = try await context.openSession()
    let identity = try await session.requireSignedIn(server: context.server)
    let opensTaps = context.arguments.flags.contains("open")
    let connection = try await deviceStream(relay: components, store: session.client.store)
    if !context.console.json {
      context.console.error("listening for pushes from \(relayText) (Ctrl-C to stop)")
    }
    var seen = Set<String>()
    var shown = 0
    for try await message in connection.inbound {
      guard case .text(let text) = message else { continue }
      let (opened, notification) = show(
        Data(text.utf8), store: session.client.store, language: language)
      // The same event delivered twice (a retry after an ambiguous failure) is shown once.
      if let id = opened?.content.eventID {
        guard seen.insert(id).inserted else { continue }
      }
      print(opened, notification, console: context.console)
      if opensTaps {
        // The tap as the app would handle it; one that opens nothing is a line, not the end.
        do {
          try await OpenCommand.tap(
            Data(text.utf8), identity: identity, session: session, console: context.console)
        } catch let error as CommandLineError where error.code == .nothingToOpen {
          context.console.error(TerminalText.safe("tap: \(error.message)"))
        }
      }
      shown += 1
      if let count, shown >= count { break }
    }
    await connection.close(code: .normalClosure, reason: nil)
  }

  private static func language(_ context: CommandContext) throws -> PushNotificationLanguage {
    switch context.arguments.values["lang"] {
    case "en": return .english
    case "zh-Hans", "zh": return .simplifiedChinese
    case nil:
      return PushNotificationLanguage(
        preferredLanguages: [ProcessInfo.processInfo.environment["LANG"] ?? "en"])
    case let other?: throw CommandLineError(.usage, "--lang takes en or zh-Hans, got '\(other)'")
    }
  }
}
