import Foundation
import NotificationPreferences
import ServerBeeKit
import ServerBeeRelay

/// The push part of `serverbee demo`: notifications enabled as the server confirms them, a test
/// push followed to `accepted`, then an alert, a failed task run and a security event, each
/// received by this installation through the embedded relay's device stream (as
/// `serverbee push listen` receives them), decrypted here and shown in English and Chinese; one
/// tap opened to its destination; and what the relay saw.
enum DemoPushes {
  /// The longest the whole push part may take before the demo gives up.
  static let timeLimit: Duration = .seconds(60)

  /// Runs the push steps, numbered after `steps`.
  /// - Returns: The steps, to continue numbering.
  /// - Throws: ``CommandLineError`` when a push does not arrive or does not open, or the SDK's
  ///   errors.
  static func run(session: ClientSession, world: DemoWorld, steps: DemoSteps) async throws
    -> DemoSteps
  {
    var steps = steps
    let client = session.client
    // What every app shows before notifications are first turned on. The demo
    // shows it and records it as read, as an app does once its user continued.
    steps.begin(
      "Before notifications are first turned on: what the relay and Apple can see "
        + "(PushPrivacyNotice)")
    for line in PushPrivacyNotice.current.text(in: .english).split(separator: "\n") {
      session.console.line("    " + line)
    }
    try await client.pushPrivacyNotice.acknowledge()
    session.console.line(
      "    ✓ recorded as read (ServerBeeClient.pushPrivacyNotice): 'serverbee notifications "
        + "enable' does not ask again here; 'serverbee notifications privacy' prints it")
    steps.begin(
      "Enabling notifications: NotificationPreferencesClient.enable (only the server's answer "
        + "counts)")
    await client.notifications.reconcile()
    var preferences = client.notifications.state.confirmedPreferences
    preferences.enabled = true
    preferences.alerts = true
    preferences.security = true
    preferences.taskFailure = true
    _ = try await client.notifications.enable(preferences)
    let state = client.notifications.state
    guard state.confirmedPreferences.enabled, case .registered = state.registration else {
      throw CommandLineError(.unexpectedAnswer, "the server did not confirm the notifications")
    }
    session.console.line(
      "    server-confirmed (revision \(state.confirmed?.revision ?? 0)): alerts, security and "
        + "task failures on")
    session.console.line(
      "    this installation is registered as a local device of the relay, with a content key "
        + "only it holds")
    // The same SDK listener as `serverbee push listen`: it opens and de-duplicates.
    let listener = try await client.localRelayListener(
      relay: world.relayURL, language: .english)
    let events = listener.events()
    let result = await Result {
      try await withThrowingTaskGroup(of: DemoSteps.self) { group in
        group.addTask {
          try await ContinuousClock().sleep(for: timeLimit)
          throw CommandLineError(
            .localFailure, "the pushes did not all arrive within \(timeLimit.components.seconds) s")
        }
        group.addTask { [steps] in
          try await scenario(session: session, world: world, events: events, steps: steps)
        }
        defer { group.cancelAll() }
        guard let steps = try await group.next() else {
          throw CommandLineError(.localFailure, "the relay's device stream closed")
        }
        return steps
      }
    }
    listener.stop()
    return try result.get()
  }

  private static func scenario(
    session: ClientSession, world: DemoWorld,
    events: AsyncThrowingStream<LocalRelayDeviceListener.Event, any Error>, steps: DemoSteps
  ) async throws -> DemoSteps {
    var steps = steps
    let console = session.console
    var inbox = Inbox(events: events.makeAsyncIterator())

    steps.begin("A test push, followed until the push provider accepted it: TestPushTracker")
    try await NotificationCommands.test(
      session, language: .english, wait: true, console: console, indent: "    ")
    show(try await inbox.next("the test push"), console: console)

    let rule = "Load above 8"
    steps.begin("An alert fires on api-iad-1, then recovers (pushes through the relay)")
    let ruleID = try await world.fireAlert(rule, on: "api-iad-1")
    let fired = try await inbox.next("the alert push")
    show(fired, console: console)
    try await world.resolveAlert(ruleID: ruleID, server: "api-iad-1")
    show(try await inbox.next("the recovery push"), console: console)

    steps.begin("A scheduled task run fails on 1 of its 3 targets")
    try await world.runTask(
      "Nightly upgrade", on: ["web-fra-1", "web-fra-2", "web-iad-1"], failing: ["web-fra-2"])
    show(try await inbox.next("the task push"), console: console)

    steps.begin("A security event: an SSH login from a new IP address on db-primary")
    try await world.raiseSecurityEvent(on: "db-primary")
    show(try await inbox.next("the security push"), console: console)

    steps.begin("Tapping the alert notification: ServerBeeClient.taps (TapRouter)")
    try await tap(fired.payload, session: session)

    steps.begin("What the relay saw: every POST /v1/send it received")
    try relaySummary(
      world.relay.received().map(\.body), console: console,
      plaintext: [
        rule, "api-iad-1", "Nightly upgrade", "web-fra-2", "db-primary", "deploy", "ssh_login",
        "task_failure", world.adminID,
      ])
    return steps
  }

  /// The pushes of this installation's device stream, as the SDK's listener opened them.
  private struct Inbox {
    var events: AsyncThrowingStream<LocalRelayDeviceListener.Event, any Error>.Iterator

    /// The next push (the listener leaves out an event seen before).
    mutating func next(_ what: String) async throws -> (
      payload: Data, content: ValidatedPushContent
    ) {
      while let event = try await events.next() {
        guard case .push(let push) = event else { continue }
        guard let content = push.content else {
          throw CommandLineError(.unexpectedAnswer, "\(what) could not be decrypted here")
        }
        return (push.payload, content)
      }
      throw CommandLineError(.localFailure, "the relay's device stream closed before \(what)")
    }
  }

  private static func show(
    _ push: (payload: Data, content: ValidatedPushContent), console: Console
  ) {
    console.line(
      "    ← \(push.content.content.kind.rawValue) push, \(push.payload.count) bytes, "
        + "decrypted with this installation's key:")
    for (label, language) in [("en", PushNotificationLanguage.english), ("zh", .simplifiedChinese)]
    {
      let notification = PushNotificationRenderer(language: language).render(push.content)
      console.line(TerminalText.safe("      \(label)  \(notification.title): \(notification.body)"))
    }
  }

  /// Hands the payload to the tap router as the app's `didReceive` would, and shows where it
  /// opens.
  private static func tap(_ payload: Data, session: ClientSession) async throws {
    let taps = session.client.taps
    await taps.receive(PushTap(apnsPayload: payload))
    await taps.markReady()
    let outcome = await taps.consume()
    guard case .open(.alertDetail(let detail))? = outcome else {
      throw CommandLineError(
        .unexpectedAnswer, "the tap did not open the alert (\(String(describing: outcome)))")
    }
    session.console.line(
      "    re-decrypted for the tap, checked against this login, loaded with "
        + "GET /api/alert-events/v1.…")
    session.console.line(
      TerminalText.safe(
        "    → opens the alert detail: \(detail.ruleName) on \(detail.serverName), "
          + "\(detail.status.rawValue), triggered \(detail.triggerCount)×"))
  }

  /// Counts what the relay received and checks that none of it is readable.
  private static func relaySummary(_ bodies: [Data], console: Console, plaintext: [String])
    throws
  {
    let readable = bodies.filter { body in
      plaintext.contains { body.range(of: Data($0.utf8)) != nil }
    }
    guard readable.isEmpty else {
      throw CommandLineError(.unexpectedAnswer, "the relay received readable push content")
    }
    let bytes = bodies.reduce(0) { $0 + $1.count }
    console.line(
      "    ✓ the relay saw ciphertext only: \(bodies.count) payloads, \(bytes) bytes, none "
        + "contains a rule, server, task or user name")
  }
}
