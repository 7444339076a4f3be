import AuthSession
import ServerBeeAPI
import ServerBeeKit
import ServerBeeModels

/// `serverbee devices revoke ID`: ends another mobile session of this account.
enum DeviceCommands {
  /// Revokes one session from `serverbee devices`; this installation's own is refused.
  ///
  /// Revoking the session this client uses would end its token at once and leave a stored
  /// login the server no longer knows; `logout` does the same revocation and also clears the
  /// local credentials (or queues the revocation when offline), so the refusal points there.
  static func revoke(_ context: CommandContext) async throws {
    let id = context.arguments.argument(0)
    guard !id.isEmpty else {
      throw CommandLineError(
        .usage, "use 'serverbee devices revoke ID' (ID from 'serverbee devices')")
    }
    let (api, identity) = try await APICredential.client(context, serverURL: context.server)
    let devices = try await Spinner.run("Loading devices", console: context.console) {
      try await api.devices()
    }
    let device = devices.first { $0.id.lowercased() == id.lowercased() }
    // On an API key there is no session of this installation to protect.
    let isThisInstallation =
      identity.map {
        $0.mobileSessionID?.lowercased() == id.lowercased()
          || device?.installationID.lowercased() == $0.installationID.lowercased()
      } ?? false
    guard !isThisInstallation else {
      throw CommandLineError(
        .usage,
        "that is this installation's own session: run 'serverbee logout' to end it (it also "
          + "clears the local credentials)")
    }
    guard let device else {
      throw CommandLineError(
        .notFound, "this account has no mobile session '\(id)' (see 'serverbee devices')")
    }
    try await APIRequest.run(
      "Revoking \(TerminalText.safe(device.deviceName))", console: context.console,
      notFound: "the session '\(id)' is already gone (see 'serverbee devices')",
      forbidden: "the server refused: the session '\(id)' belongs to another account"
    ) { try await api.revokeDevice(id: device.id) }
    if context.console.json {
      context.console.json(
        try WireJSON.encode(["revoked": device.id, "device_name": device.deviceName]))
    } else {
      context.console.line(
        TerminalText.safe(
          "Revoked \(device.deviceName) (session \(device.id)): its tokens and push "
            + "registrations are gone."))
    }
  }
}
