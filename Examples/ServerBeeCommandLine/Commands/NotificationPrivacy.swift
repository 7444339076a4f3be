import Foundation
import NotificationPreferences
import ServerBeeKit
import ServerBeeModels

/// The push privacy notice (`PushPrivacyNotice`: what the relay and Apple can and cannot see)
/// on the command line: `serverbee notifications privacy` prints it, and `notifications enable`
/// shows it once before notifications are first turned on.
///
/// The record that it was read is the SDK's `PushPrivacyNoticeRecord`, kept per installation
/// in the home's store (`ServerBeeClient.pushPrivacyNotice`), so a second
/// `enable` does not ask again, and neither does one after signing in as someone else.
enum NotificationPrivacy {
  /// `notifications privacy [--lang en|zh-Hans]`: the notice in both languages, or the one
  /// chosen; no network, no session.
  static func show(_ context: CommandContext) async throws {
    let languages: [PushPrivacyNotice.Language]
    switch context.arguments.values["lang"] {
    case nil: languages = [.english, .simplifiedChinese]
    case "en": languages = [.english]
    case "zh-Hans", "zh": languages = [.simplifiedChinese]
    case let other?: throw CommandLineError(.usage, "--lang takes en or zh-Hans, got '\(other)'")
    }
    let notice = PushPrivacyNotice.current
    if context.console.json {
      var document: [String: [String]] = [:]
      for language in languages {
        document[language == .english ? "en" : "zh-Hans"] = notice.points(in: language)
      }
      context.console.json(try WireJSON.encode(document))
      return
    }
    context.console.line(languages.map { notice.text(in: $0) }.joined(separator: "\n\n"))
  }

  /// Makes sure the user read the notice before `enable` sends anything: nothing when it was
  /// acknowledged here before; `--yes` and `--json` acknowledge it (a note on stderr says where
  /// to read it); on a terminal it is printed on stderr and a `[y/N]` question asked; without a
  /// terminal the command is refused.
  /// - Parameters:
  ///   - record: The installation's record.
  ///   - language: The language to show it in.
  ///   - arguments: The command line (`--yes`).
  ///   - console: Tells whether stdin is a terminal and whether `--json` was given.
  ///   - answer: Reads the answer after the question was shown (stdin in the process).
  /// - Throws: ``CommandLineError`` `.usage` without a terminal and without `--yes`/`--json`,
  ///   `.declined` when the answer is not yes, or the record's storage error.
  static func require(
    _ record: PushPrivacyNoticeRecord, language: PushPrivacyNotice.Language,
    arguments: ParsedArguments, console: Console,
    answer: () -> String? = { readLine(strippingNewline: true) }
  ) async throws {
    if try await record.isAcknowledged() { return }
    if arguments.flags.contains("yes") || console.json {
      try await record.acknowledge()
      console.error(
        "(the push privacy notice counts as read with "
          + (console.json ? "--json" : "--yes")
          + ": 'serverbee notifications privacy' prints it)")
      return
    }
    guard console.stdinIsTerminal else {
      throw CommandLineError(
        .usage,
        "notifications are turned on here for the first time: read what the relay and Apple "
          + "can see ('serverbee notifications privacy' prints it), then pass --yes")
    }
    let question =
      language == .english ? "Turn on notifications?" : "开启通知？"
    StandardStream.err(PushPrivacyNotice.current.text(in: language) + "\n\n\(question) [y/N] ")
    let reply = (answer() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    guard reply == "y" || reply == "yes" else {
      throw CommandLineError(
        .declined, "nothing was changed (the privacy notice was not accepted)")
    }
    try await record.acknowledge()
  }
}
