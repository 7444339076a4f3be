import Foundation
import NotificationPreferences
import PushEnvelopeCrypto
import SecureStore
import ServerBeeKit
import ServerBeeModels
import ServerBeeTransport

/// `serverbee push listen [--relay URL]`: this installation as a local device of a
/// `serverbee-relay`. Receives the encrypted pushes of its ServerBee server (reconnecting when
/// the relay goes away), decrypts each with the content key in the store (the
/// extension-shared group, as a notification extension would) and prints its notification.
enum PushCommands {
  /// `push decrypt FILE|-`: the notification-extension step alone. An APNs payload in, the
  /// rendered notification out, using only the extension-shared key; any failure shows the
  /// generic text, as the extension does, then fails the command with the reason.
  static func decrypt(_ context: CommandContext) async throws {
    guard context.arguments.positionals.count == 1 else {
      throw CommandLineError(.usage, "use 'serverbee push decrypt FILE' (or - for stdin)")
    }
    let payload = try PayloadInput.read(context.arguments.positionals[0])
    let store = try EncryptedSQLiteCredentialStore(directory: context.home)
    let result = NotificationExtensionStep(store: store, language: try language(context))
      .process(apnsPayload: payload)
    print(result.content, result.notification, console: context.console)
    // The extension shows the fallback text; the command also says why, and fails.
    if let failure = result.failure {
      throw CommandLineError(.localFailure, "the payload did not open: \(failure)")
    }
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

  /// `push listen`: the SDK's `LocalRelayDeviceListener` for this installation's stored device
  /// (or a token the relay issues now), over the session's transports and TLS trust, until
  /// `--count`, `--duration`, Ctrl-C or a revoked token. When the relay goes away, one line on
  /// stderr per attempt to reconnect. The SDK opens and de-duplicates; this presents.
  static func listen(_ context: CommandContext) async throws {
    let limits = try ListenLimits(context.arguments)
    let language = try language(context)
    let named = try RelayOption.resolve(context.arguments)
    let session = try await context.openSession()
    let identity = try await session.requireSignedIn(server: context.server)
    let opensTaps = context.arguments.flags.contains("open")
    let listener: LocalRelayDeviceListener
    do {
      listener = try await session.client.localRelayListener(relay: named, language: language)
    } catch let error as NotificationPreferencesError
      where error.code == .invalidRelayURL && named == nil
    {
      throw CommandLineError(
        .usage,
        "no relay to listen on: give --relay URL (or set SERVERBEE_RELAY), or run "
          + "'serverbee notifications enable --relay URL' first")
    } catch let error as NotificationPreferencesError {
      throw CommandLineError(.localFailure, error.message, underlying: error)
    }
    let relayName = listener.relayURL.absoluteString
    // `--duration` is a deadline: the loop stops there even when pushes keep coming (a flood
    // must not keep it draining), and the timer ends a quiet stream.
    let deadline = limits.duration.map { ContinuousClock.now.advanced(by: $0) }
    let timer = limits.duration.map { duration in
      Task {
        try? await ContinuousClock().sleep(for: duration)
        listener.stop()
      }
    }
    defer { timer?.cancel() }
    var shown = 0
    var announced = false
    do {
      for try await event in listener.events() {
        if let deadline, ContinuousClock.now >= deadline { break }
        switch event {
        case .connected:
          if !announced, !context.console.json {
            context.console.error(
              TerminalText.safe("listening for pushes from \(relayName) (Ctrl-C to stop)"))
          }
          announced = true
          continue
        case .reconnecting(let delay, let reason):
          context.console.error(
            TerminalText.safe(
              "relay \(relayName) went away (\(reason)); reconnecting in \(seconds(delay)) s"))
          continue
        case .push(let push):
          print(push.content, push.notification, console: context.console)
          if opensTaps {
            // The tap as the app would handle it; one that opens nothing is a line, not the end.
            do {
              try await OpenCommand.tap(
                push.payload, identity: identity, session: session, console: context.console)
            } catch let error as CommandLineError where error.code == .nothingToOpen {
              context.console.error(TerminalText.safe("tap: \(error.message)"))
            }
          }
          shown += 1
        }
        if let count = limits.count, shown >= count { break }
      }
    } catch let error as NotificationPreferencesError where error.code == .deviceUnregistered {
      // The SDK has forgotten the revoked token, so 'enable' gets a new one.
      throw CommandLineError(
        .localFailure,
        "\(error.message): run 'serverbee notifications enable --relay \(relayName)' for a new one")
    } catch let error as NotificationPreferencesError {
      throw CommandLineError(.localFailure, error.message, underlying: error)
    }
  }

  /// A delay as seconds with one decimal: `1.2`.
  private static func seconds(_ duration: Duration) -> String {
    let (whole, attoseconds) = duration.components
    let value = Double(whole) + Double(attoseconds) / 1e18
    return String(format: "%.1f", value)
  }

  /// `--count N` and `--duration SECONDS`, each optional and positive.
  private struct ListenLimits {
    var count: Int?
    var duration: Duration?

    init(_ arguments: ParsedArguments) throws {
      if let text = arguments.values["count"] {
        guard let value = Int(text), value > 0 else {
          throw CommandLineError(.usage, "--count expects a positive number, got '\(text)'")
        }
        count = value
      }
      if let text = arguments.values["duration"] {
        guard let value = Double(text), value.isFinite, value > 0, value <= 1e9 else {
          throw CommandLineError(
            .usage, "--duration expects a positive number of seconds, got '\(text)'")
        }
        duration = .milliseconds(Int64((value * 1000).rounded(.up)))
      }
    }
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
