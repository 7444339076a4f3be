import DeepLinkValidation
import Foundation
import ServerBeeAPI
import ServerBeeKit
import ServerBeeModels

/// `serverbee open FILE|-`: the tap step alone (Protocol/Push.md §7). A raw APNs payload goes
/// through the SDK's `TapRouter` (`ServerBeeClient.taps`) with the stored login and content key,
/// and the screen it ends on is printed.
///
/// A destination, and a fallback screen ("Alert not found", "Unavailable"), are what the app
/// would show: exit status 0. A tap that opens nothing (not for this login, or the envelope did
/// not validate) is one line on stderr and status 1.
enum OpenCommand {
  static func run(_ context: CommandContext) async throws {
    let payload = try PayloadInput.read(context.arguments.positionals[0])
    let session = try await context.openSession()
    let identity = try await session.requireSignedIn(server: context.server)
    try await tap(payload, identity: identity, session: session, console: context.console)
  }

  /// Taps one APNs payload through `ServerBeeClient.taps` and prints the screen it ends on.
  /// - Throws: `CommandLineError` (`nothingToOpen`) when the tap opens nothing.
  static func tap(
    _ payload: Data, identity: SessionIdentity, session: ClientSession, console: Console
  ) async throws {
    let taps = session.client.taps
    await taps.receive(PushTap(apnsPayload: payload))
    await taps.markReady()
    let outcome = try await Spinner.run("Opening the notification", console: console) {
      await taps.consume()
    }
    switch outcome {
    case .open(let destination)?:
      try await show(destination, identity: identity, session: session, console: console)
    case .unavailable(let reason)?:
      guard reason.fallback != .noNavigation else {
        throw CommandLineError(.nothingToOpen, TapText.refusal(reason))
      }
      try show(reason, console: console)
    case nil:
      throw CommandLineError(.nothingToOpen, "there was no notification to open")
    }
  }

  private static func show(
    _ destination: TapDestination, identity: SessionIdentity, session: ClientSession,
    console: Console
  ) async throws {
    switch destination {
    case .alertDetail(let detail):
      if console.json {
        console.json(try WireJSON.encode(OpenDocument(alert: detail)))
        return
      }
      console.line("Alert detail")
      console.line(Tables.alertDetail(detail))
    case .taskRunResults(let taskID, let runID, let results):
      if console.json {
        console.json(
          try WireJSON.encode(OpenDocument(taskID: taskID, runID: runID, results: results)))
        return
      }
      console.line("Task run results")
      console.line(TerminalText.safe("task \(taskID), run \(runID)"))
      let names = await APIRequest.serverNames(try session.client.api())
      TaskCommands.printResults(results, serverNames: names, showRun: false, console: console)
    case .securityEvent(let event):
      if console.json {
        console.json(try WireJSON.encode(OpenDocument(event: event)))
        return
      }
      console.line("Security event")
      let names = await APIRequest.serverNames(try session.client.api())
      console.line(Tables.securityEvent(event, serverNames: names))
    case .home:
      if console.json {
        console.json(try WireJSON.encode(OpenDocument.home))
        return
      }
      console.line("Home")
      console.line("Signed in as \(IdentitySummary(identity).sentence) (a test notification)")
    }
  }

  private static func show(_ reason: TapUnavailableReason, console: Console) throws {
    let fallback = reason.fallback
    if console.json {
      console.json(try WireJSON.encode(OpenDocument(fallback: fallback, reason: reason)))
      return
    }
    console.line(fallback.title ?? "")
    console.line(TapText.explanation(reason))
    if fallback == .alertNotFound {
      console.line("\(fallback.actionTitle ?? ""): serverbee alerts")
    } else if let action = fallback.actionTitle {
      console.line(action)
    }
  }
}
