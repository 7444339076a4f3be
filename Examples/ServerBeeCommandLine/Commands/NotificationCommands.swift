import Foundation
import NotificationPreferences
import ServerBeeKit
import ServerBeeModels

/// `serverbee notifications`: the server-confirmed push settings of this installation, saving
/// them, and test pushes, on the SDK's `NotificationPreferencesClient` and `TestPushTracker`.
enum NotificationCommands {
  /// Runs one action: `show`, `enable`, `disable`, `set` or `test` (each declared on its own).
  static func run(_ context: CommandContext, action: String) async throws {
    let choices = try categoryChoices(context)
    let language = try testLanguage(context)
    let session = try ClientSession.open(
      home: context.home, console: context.console,
      relay: try RelayOption.resolve(context.arguments))
    if action == "enable" {
      // Before anything is sent, queued sign-outs included: a refusal changes nothing.
      try await NotificationPrivacy.require(
        session.client.pushPrivacyNotice,
        language: language == .english ? .english : .simplifiedChinese,
        arguments: context.arguments, console: context.console)
    }
    try await session.prepare()
    _ = try await session.requireSignedIn(server: context.server)
    let notifications = session.client.notifications
    let console = context.console
    if action == "test", context.arguments.flags.contains("status") {
      try await testStatus(
        session, language: language, wait: context.arguments.flags.contains("wait"),
        console: console)
      return
    }
    await notifications.reconcile()
    switch action {
    case "enable":
      var preferences = notifications.state.confirmedPreferences
      preferences.enabled = true
      if choices.isEmpty { preferences.alerts = true }
      let wanted = apply(choices, to: preferences)
      try await saving(console) { try await notifications.enable(wanted) }
    case "disable":
      try await saving(console) { try await notifications.disable() }
    case "set":
      guard !choices.isEmpty else {
        throw CommandLineError(.usage, "'set' needs at least one of --alerts, --security, …")
      }
      let preferences = apply(choices, to: notifications.state.confirmedPreferences)
      try await saving(console) { try await notifications.save(preferences) }
    case "test":
      if let failure = notifications.state.loadError { throw failure.error }
      try await test(
        session, language: language, wait: context.arguments.flags.contains("wait"),
        console: console)
      return
    default: break
    }
    let state = notifications.state
    show(state, console: console)
    // A failure never exits 0: a load that failed (show) or a refused registration.
    if let failure = state.loadError { throw failure.error }
    if case .failed(let failure) = state.registration {
      throw CommandLineError(
        .localFailure,
        "the settings were saved, but registering this installation failed: "
          + failure.message)
    }
  }

  /// Runs a save with a spinner.
  private static func saving(
    _ console: Console, _ save: @escaping @Sendable () async throws -> NotificationSettingsState
  ) async throws {
    _ = try await Spinner.run("Saving", console: console, save)
  }

  /// Sends one test and prints the server's first answer; with `wait`, follows it with live
  /// progress (a line per outcome change, after `indent`, a spinner in between) until the
  /// outcome is final.
  static func test(
    _ session: ClientSession, language: TestPushStatusText.Language, wait: Bool,
    console: Console, indent: String = ""
  ) async throws {
    let state = session.client.notifications.state
    guard state.canSendTest, let revision = state.confirmed?.revision else {
      throw CommandLineError(
        .localFailure,
        "notifications are not registered here: run 'serverbee notifications enable' first")
    }
    let tracker = session.client.testPushes(maximumFailedReads: maximumFailedReads)
    let progress = await tracker.send(expectedRevision: revision)
    try await keepingTheTest(tracker) {
      try await follow(progress, language: language, wait: wait, console: console, indent: indent)
    }
  }

  /// Status reads in a row that may fail before following ends: a read that does not reach
  /// the server is tried once more after the poll interval (2 s), then the command ends with
  /// one line (a down server made `test --status --wait` wait for ever). Each read is
  /// bounded by the client's request timeout (15 s), so a server that accepts connections but
  /// never answers ends it within about 32 s, a refused connection within about 2 s.
  static let maximumFailedReads = 2

  /// The longest `--wait` follows a test: the server ends every test 30 minutes after its
  /// creation (expired), so this only bounds a server that never says so.
  static let longestWait: Duration = .seconds(31 * 60)

  /// Runs `follow`, turning a server that could not be reached into one line that says the
  /// test is kept (its event id stays stored) and how to follow it later.
  private static func keepingTheTest(
    _ tracker: TestPushTracker, _ follow: () async throws -> Void
  ) async throws {
    do {
      try await follow()
    } catch let error as NotificationPreferencesError where error.code == .transportFailed {
      let id = await tracker.storedEventID.map { " \($0)" } ?? ""
      throw CommandLineError(
        .localFailure,
        "\(error.message); the test\(id) is kept: "
          + "'serverbee notifications test --status --wait' follows it")
    }
  }

  /// `test --status [--wait]`: the last test of this login, read again from the server (same
  /// event id, no new test, no new deadline); with `wait`, followed to its final outcome.
  private static func testStatus(
    _ session: ClientSession, language: TestPushStatusText.Language, wait: Bool,
    console: Console
  ) async throws {
    let tracker = session.client.testPushes(maximumFailedReads: maximumFailedReads)
    guard let progress = await tracker.lastTest() else {
      throw CommandLineError(
        .localFailure,
        "this login has sent no test notification: run 'serverbee notifications test'")
    }
    try await keepingTheTest(tracker) {
      try await follow(progress, language: language, wait: wait, console: console, indent: "")
    }
  }

  /// Prints a test's progress: its first answer, or with `wait` every outcome change until the
  /// final one (exit 0 only for accepted). With `--json`, one document at the end.
  private static func follow(
    _ progress: AsyncThrowingStream<TestPushTracker.Progress, any Error>,
    language: TestPushStatusText.Language, wait: Bool, console: Console, indent: String
  ) async throws {
    let label = TestProgressText.waiting(language)
    let updates = try await Spinner.run(label, console: console) { status in
      var updates: [TestPushTracker.Progress] = []
      var lastCause: String?
      let started = ContinuousClock.now
      for try await update in progress {
        if update.outcome != updates.last?.outcome || update.reason != updates.last?.reason {
          if update.outcome != updates.last?.outcome, !status.console.json {
            status.line(indent + update.statusLine(language))
          }
          // The cause and what to check, for example a relay that refused the server's
          // request because their clocks disagree (RelayPayloadRejected); once per cause.
          let cause = TestPushStatusText.reasonLine(for: update.reason, language: language)
          if let cause, cause != lastCause, !status.console.json {
            status.line(indent + TerminalText.safe(cause))
          }
          lastCause = cause ?? lastCause
          updates.append(update)
        }
        // Without --wait the server's first answer (its admission) is the result.
        if !wait { break }
        // Each read is bounded; this bounds a server that never reports a final outcome.
        guard ContinuousClock.now - started < longestWait else {
          throw CommandLineError(
            .localFailure,
            "the test push did not reach a final outcome within "
              + "\(longestWait.components.seconds / 60) minutes")
        }
        status.relabel(TestProgressText.waiting(language, outcome: update.outcome))
      }
      return updates
    }
    guard let last = updates.last else {
      throw CommandLineError(.unexpectedAnswer, "the server did not answer the test")
    }
    if console.json { console.json(try WireJSON.encode(TestDocument(updates, language))) }
    if !wait {
      guard last.outcome.isInProgress || last.outcome == .accepted else {
        throw CommandLineError(.localFailure, "the test push ended \(last.outcome.rawValue)")
      }
      if last.outcome.isInProgress, !console.json {
        console.error(TestProgressText.hint(language))
      }
      return
    }
    guard last.outcome == .accepted else {
      throw CommandLineError(.localFailure, "the test push ended \(last.outcome.rawValue)")
    }
  }

  static func show(_ state: NotificationSettingsState, console: Console) {
    if console.json {
      if let data = try? WireJSON.encode(SettingsDocument(state)) { console.json(data) }
      return
    }
    let confirmed = state.confirmed
    let preferences = state.confirmedPreferences
    var lines = [
      "settings (server-confirmed, revision \(confirmed?.revision ?? 0)): "
        + (preferences.enabled ? "enabled" : "disabled"),
      "  " + categories(preferences),
      "permission: \(state.permission)",
      "registration: " + registrationText(state.registration),
      "delivery: " + ((confirmed?.deliveryAvailable ?? false) ? "available" : "unavailable"),
    ]
    if let failure = state.loadError, confirmed == nil {
      lines = [
        "settings: could not be loaded (\(failure.message))",
        "permission: \(state.permission)",
        "registration: unknown until the settings load",
      ]
    }
    if let unconfirmed = state.unconfirmed, unconfirmed != preferences || state.saveError != nil {
      lines.append(
        "not confirmed yet: " + (unconfirmed.enabled ? "enabled" : "disabled") + ", "
          + categories(unconfirmed))
    }
    if let error = state.saveError { lines.append("last save error: \(error.message)") }
    for line in lines { console.line(TerminalText.safe(line)) }
  }

  private static func categories(_ preferences: PushPreferences) -> String {
    func flag(_ on: Bool) -> String { on ? "on" : "off" }
    return "alerts \(flag(preferences.alerts))  security \(flag(preferences.security))  "
      + "task failures \(flag(preferences.taskFailure))  "
      + "task successes \(flag(preferences.taskSuccess))"
  }

  private static func registrationText(_ status: PushRegistrationStatus) -> String {
    switch status {
    case .notRegistered: return "not registered"
    case .needsPermission: return "waiting for permission"
    case .registering: return "registering"
    case .registered: return "registered"
    case .failed(let failure): return "failed: \(failure.message)"
    }
  }

  private typealias Choices = [WritableKeyPath<PushPreferences, Bool>: Bool]

  private static func categoryChoices(_ context: CommandContext) throws -> Choices {
    let options: [(String, WritableKeyPath<PushPreferences, Bool>)] = [
      ("alerts", \.alerts), ("security", \.security), ("task-failure", \.taskFailure),
      ("task-success", \.taskSuccess),
    ]
    var choices: Choices = [:]
    for (name, path) in options {
      guard let value = context.arguments.values[name] else { continue }
      switch value {
      case "on": choices[path] = true
      case "off": choices[path] = false
      default: throw CommandLineError(.usage, "--\(name) takes on or off, got '\(value)'")
      }
    }
    return choices
  }

  private static func apply(_ choices: Choices, to preferences: PushPreferences) -> PushPreferences
  {
    var preferences = preferences
    for (path, value) in choices { preferences[keyPath: path] = value }
    return preferences
  }

  private static func testLanguage(_ context: CommandContext) throws
    -> TestPushStatusText.Language
  {
    switch context.arguments.values["lang"] {
    case "en": return .english
    case "zh-Hans", "zh": return .simplifiedChinese
    case nil:
      let lang = ProcessInfo.processInfo.environment["LANG"] ?? ""
      return lang.lowercased().hasPrefix("zh") ? .simplifiedChinese : .english
    case let other?: throw CommandLineError(.usage, "--lang takes en or zh-Hans, got '\(other)'")
    }
  }
}

/// The command line's own words around the test status lines (the lines themselves are the
/// SDK's `TestPushStatusText`), in the same two languages.
enum TestProgressText {
  /// The spinner's label while waiting for the next answer.
  static func waiting(_ language: TestPushStatusText.Language, outcome: PushOutcome? = nil)
    -> String
  {
    switch (language, outcome) {
    case (.english, nil): return "Sending the test notification"
    case (.english, .retryable?): return "Waiting for the next delivery attempt"
    case (.english, _): return "Waiting for the push provider"
    case (.simplifiedChinese, nil): return "正在发送测试通知"
    case (.simplifiedChinese, .retryable?): return "正在等待下一次投递尝试"
    case (.simplifiedChinese, _): return "正在等待推送服务商"
    }
  }

  /// The note after a test that is not followed.
  static func hint(_ language: TestPushStatusText.Language) -> String {
    switch language {
    case .english:
      return "(not followed further: 'serverbee notifications test --wait' follows a test to "
        + "its outcome)"
    case .simplifiedChinese:
      return "（未继续跟踪：'serverbee notifications test --wait' 会跟踪测试直到最终结果）"
    }
  }
}
