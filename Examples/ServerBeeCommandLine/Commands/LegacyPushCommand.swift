import ServerBeeAPI
import ServerBeeKit
import ServerBeeModels

/// `serverbee push register-legacy TOKEN`: the direct-APNs registration of servers without
/// encrypted push, for this login's mobile session.
enum LegacyPushCommand {
  /// Registers the APNs token (hex) for this mobile session. The server refuses an
  /// installation that moved to encrypted push (409), which is said as such.
  static func run(_ context: CommandContext) async throws {
    let token = context.arguments.argument(0).lowercased()
    guard !token.isEmpty, token.count.isMultiple(of: 2), token.allSatisfy(\.isHexDigit) else {
      throw CommandLineError(
        .usage, "TOKEN is the device's APNs token as hexadecimal digits (64 for an iPhone)")
    }
    let session = try await context.openSession()
    _ = try await session.requireSignedIn(server: context.server)
    let api = try session.client.api()
    do {
      try await APIRequest.run(
        "Registering the device token", console: context.console,
        forbidden: "the server refused: this device is registered to another account"
      ) { try await api.registerLegacyPush(deviceToken: token) }
    } catch let error as ServerBeeAPIError where error.code == .conflict {
      throw CommandLineError(
        .notPermitted,
        "this installation uses encrypted push on this server, which never goes back to the "
          + "legacy registration: use 'serverbee notifications enable'", underlying: error)
    }
    if context.console.json {
      context.console.json(try WireJSON.encode(["registered": true]))
    } else {
      context.console.line(
        "Registered the device token for direct APNs pushes (not end-to-end encrypted). "
          + "The server drops it at each token refresh: register again after one.")
    }
  }
}
