import ServerBeeAPI
import ServerBeeKit
import ServerBeeModels

/// `serverbee channels [enable|disable|test ID]` (admins): the alert notification channels.
///
/// A channel's configuration holds secrets (bot tokens, device keys, an APNs private key), so
/// neither the table nor `--json` ever shows it: `--json` writes each channel without
/// `config_json`.
enum ChannelCommands {
  private static let forbidden = "only an admin may see or change notification channels"

  /// `channels`: every channel, without its configuration.
  static func list(_ context: CommandContext) async throws {
    let channels = try await ListOutput.load(
      context, "Loading notification channels", forbidden: forbidden
    ) { try await $0.notificationChannels() }
    let sorted = channels.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    try await ListOutput.print(
      sorted, json: sorted.map(ChannelSummary.init), empty: "No notification channels.",
      console: context.console,
      columns: [.left("CHANNEL"), .left("TYPE"), .left("ON"), .left("ID")]
    ) { channel in
      [channel.name, channel.notifyType.rawValue, channel.enabled ? "yes" : "no", channel.id]
    }
  }

  /// `channels enable|disable ID`.
  static func setEnabled(_ context: CommandContext, _ enabled: Bool) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let id = context.arguments.argument(0)
    let channel = try await APIRequest.run(
      enabled ? "Enabling the channel" : "Disabling the channel", console: console,
      notFound: "no notification channel '\(id)' (see 'serverbee channels')",
      forbidden: forbidden
    ) { try await api.setNotificationChannel(id: id, enabled: enabled) }
    if console.json {
      console.json(try WireJSON.encode(ChannelSummary(channel)))
    } else {
      console.line(
        TerminalText.safe(
          "Channel \(channel.name) is \(channel.enabled ? "enabled" : "disabled") "
            + "(id \(channel.id))."))
    }
  }

  /// `channels test ID`: a synthetic alert through the channel.
  static func test(_ context: CommandContext) async throws {
    let console = context.console
    let api = try await APICredential.client(context)
    let id = context.arguments.argument(0)
    do {
      try await APIRequest.run(
        "Sending a test through the channel", console: console,
        notFound: "no notification channel '\(id)' (see 'serverbee channels')",
        forbidden: forbidden
      ) { try await api.testNotificationChannel(id: id) }
    } catch let error as ServerBeeAPIError where error.httpStatus == 502 {
      // The channel's own delivery failure (Protocol/Alerts.md §7.3), not the server's.
      let reason = (error.underlying as? APIFailure)?.message ?? "no reason given"
      throw CommandLineError(
        .unexpectedAnswer,
        TerminalText.safe("the channel could not deliver the test: \(reason.prefix(200))"),
        underlying: error)
    }
    if console.json {
      console.json(try WireJSON.encode(["sent": true]))
    } else {
      console.line("Test notification sent through channel \(TerminalText.safe(id)).")
    }
  }

  /// A channel without its configuration (`config_json` holds secrets), in wire key order.
  struct ChannelSummary: Encodable {
    var id: String
    var name: String
    var notifyType: String
    var enabled: Bool
    var createdAt: RFC3339Timestamp

    init(_ channel: NotificationChannel) {
      id = channel.id
      name = channel.name
      notifyType = channel.notifyType.rawValue
      enabled = channel.enabled
      createdAt = channel.createdAt
    }

    enum CodingKeys: String, CodingKey {
      case id, name
      case notifyType = "notify_type"
      case enabled
      case createdAt = "created_at"
    }
  }
}
